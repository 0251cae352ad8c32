// Recognises the known errors (knowledge.ts) among the entries and says how many,
// for which request ids, and when: the diagnosis section of the reports.

import type { DbSignature, Entry } from '../parse/entry.js';
import { RequestCode } from '../parse/request.js';
import { Moment, type IdState } from './aggregates.js';
import { KNOWLEDGE, stepsFor, type Backend, type DiagnosisId, type Knowledge } from './knowledge.js';

export interface Diagnosis {
  id: DiagnosisId;
  title: string;
  meaning: string;
  fix: string[];
  entries: number;
  /** The request ids it was seen with, in the order of the report: the first REQUEST_IDS_LISTED. */
  requestIds: string[];
  /** How many request ids it was seen with, in all. */
  requestIdCount: number;
  first: string;
  last: string;
  /** IMAP login failures: counts by user and client address, most first. */
  breakdown?: BreakdownRow[];
  /** Failures counted in no row of the breakdown: their user and address were let go (see Breakdown). */
  breakdownOthers?: number;
}

export interface BreakdownRow {
  user: string;
  client: string;
  count: number;
}

/**
 * Users and client addresses a breakdown keeps apart: an attack from a botnet brings a new
 * pair with nearly every line, and a follower runs for months. When twice this many are
 * held, all but this many of the largest are let go, their failures counted as others, so
 * memory stays bounded while the addresses worth blocking, the frequent ones, stay listed.
 */
export const BREAKDOWN_KEPT = 1000;

/** Counts by user and client address, bounded as BREAKDOWN_KEPT says. */
export class Breakdown {
  private readonly rows = new Map<string, BreakdownRow>();
  /** Failures of the pairs let go. */
  others = 0;

  add(user: string, client: string): void {
    const key = `${user}\u0000${client}`;
    const row = this.rows.get(key);
    if (row !== undefined) {
      row.count++;
      return;
    }
    this.rows.set(key, { user, client, count: 1 });
    if (this.rows.size >= 2 * BREAKDOWN_KEPT) {
      const sorted = this.sorted();
      for (const r of sorted.slice(BREAKDOWN_KEPT)) {
        this.others += r.count;
        this.rows.delete(`${r.user}\u0000${r.client}`);
      }
    }
  }

  get size(): number {
    return this.rows.size;
  }

  /** Most first; then by user and address (code-unit order). */
  sorted(): BreakdownRow[] {
    return [...this.rows.values()].sort(
      (a, b) => b.count - a.count || (a.user < b.user ? -1 : a.user > b.user ? 1 : 0) || (a.client < b.client ? -1 : a.client > b.client ? 1 : 0),
    );
  }
}

/** The request ids of the report, in order. */
export interface ReportIds {
  readonly length: number;
  id(i: number): string;
}

/** Request ids a diagnosis lists; the rest are counted (a busy server has a hundred thousand). */
export const REQUEST_IDS_LISTED = 100;

class Tally {
  entries = 0;
  /**
   * Its mark on the request ids it was seen with: one bit of IdState.diagnosed, so that an
   * id costs a diagnosis nothing but that bit, however many ids there are.
   */
  mark = 0;
  first: Moment | null = null;
  last: Moment | null = null;
  readonly breakdown = new Breakdown();
  /** The database backends its entries came from. */
  readonly backends = new Set<Backend>();

  add(e: Entry, id: IdState | null): void {
    this.entries++;
    if (id !== null) id.diagnosed |= this.mark;
    if (this.first === null || this.last === null) {
      this.first = new Moment(e.instant, e.offset, e.negative);
      this.last = new Moment(e.instant, e.offset, e.negative);
    } else if (e.instant < this.first.instant) {
      this.first.set(e.instant, e.offset, e.negative);
    } else if (e.instant > this.last.instant) {
      this.last.set(e.instant, e.offset, e.negative);
    }
  }

  merge(other: Tally): void {
    this.entries += other.entries;
    for (const b of other.backends) this.backends.add(b);
    this.mark |= other.mark;
    if (other.first && (!this.first || other.first.instant < this.first.instant)) this.first = new Moment(other.first.instant, other.first.offset, other.first.negative);
    if (other.last && (!this.last || other.last.instant > this.last.instant)) this.last = new Moment(other.last.instant, other.last.offset, other.last.negative);
  }
}

/** What a login failure's client address is counted as when it cannot be told for sure. */
const UNKNOWN_CLIENT = 'unknown';

const LOGIN_FAILED = 'Login failed for ';
/** `<file> on line <n> (<METHOD> <path>)` at the end of the text: what the service appends. */
const SOURCE_TAIL = / in \S+ on line \d+ \([A-Z]+ \S*\)\s*$/;
/** ` from <IPv4 or IPv6 address>`, then what ends it: `. `, `.` at the end, the end, or a proxy's `(X-`. */
const FROM_ADDRESS = / from ((?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]*:[0-9A-Fa-f:.]*)(?=\.(?: |$)|$|\(X-)/g;

/**
 * The user and client address of an IMAP login failure, in every form Roundcube writes:
 * `Login failed for <user> against <host> from <client>. <answer>` (1.4 on), `… for
 * <user> from <client>. <answer>` (1.0 to 1.3), ending at the client (older), and
 * `<client>(X-Real-IP: …,X-Forwarded-For: …)` behind a proxy, where the client counted is
 * the address Roundcube itself saw. User name and answer are the attacker's to choose: a
 * text with more than one ` from <address>` in such a place is ambiguous, and its client
 * is UNKNOWN_CLIENT rather than a guess (the diagnosis tells operators to block addresses).
 */
function loginFailure(text: string): { user: string; client: string } | null {
  const at = text.indexOf(LOGIN_FAILED);
  if (at < 0) return null;
  const tail = SOURCE_TAIL.exec(text);
  const body = text.slice(at + LOGIN_FAILED.length, tail === null ? text.length : tail.index);
  const found = [...body.matchAll(FROM_ADDRESS)];
  if (found.length !== 1) {
    const cut = body.indexOf(' from ');
    return { user: cut < 0 ? body : userOf(body.slice(0, cut)), client: UNKNOWN_CLIENT };
  }
  const m = found[0];
  return { user: userOf(body.slice(0, m.index)), client: m[1] };
}

/** `<user> against <host>` or `<user>`: the host is one word. */
function userOf(before: string): string {
  const against = before.lastIndexOf(' against ');
  return against >= 0 && !before.slice(against + ' against '.length).includes(' ') ? before.slice(0, against) : before;
}

/** The diagnoses a DB error signature belongs to, with the backend each saw. */
function signatureTags(s: DbSignature, request: RequestCode): [DiagnosisId, Backend | null][] {
  const tags: [DiagnosisId, Backend | null][] = [];
  for (const k of KNOWLEDGE as readonly Knowledge[]) {
    const backend = k.db?.(s.code, s.message) ?? null;
    if (backend !== null) tags.push([k.id as DiagnosisId, backend]);
  }
  if (s.code === '' && s.message === '' && (request === RequestCode.Login || request === RequestCode.Entry)) tags.push(['empty-db-error', null]);
  return tags;
}

/** Ids from place `from` to `to` whose marks include `mark`. */
function countMarked(marks: ArrayLike<number>, from: number, to: number, mark: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if ((marks[i] & mark) !== 0) count++;
  return count;
}

export class DiagnosisCollector {
  private readonly tallies = new Map<DiagnosisId, Tally>();
  /** The tallies of each signature, per request kind: a log repeats a few signatures millions of times. */
  private readonly talliesOf = new WeakMap<DbSignature, Tally[][]>();
  /**
   * The last two signatures looked up, and their tallies: a refresh's two lookups take
   * turns, and the WeakMap's lookup for each was 15 ms of *short*'s analysing thread a GB.
   */
  private lastSignature: DbSignature | null = null;
  private lastTallies: Tally[][] = [];
  private otherSignature: DbSignature | null = null;
  private otherTallies: Tally[][] = [];

  private tally(id: DiagnosisId): Tally {
    let t = this.tallies.get(id);
    if (t === undefined) {
      this.tallies.set(id, (t = new Tally()));
      t.mark = 1 << KNOWLEDGE.findIndex((k) => k.id === id);
    }
    return t;
  }

  /**
   * The tallies a signature counts in, for one kind of request. A method of its own: the
   * closure it makes would cost `entry`, which runs for every entry, a context each call.
   */
  private talliesFor(s: DbSignature, request: RequestCode): Tally[] {
    return signatureTags(s, request).map(([id, backend]) => {
      const t = this.tally(id);
      if (backend !== null) t.backends.add(backend);
      return t;
    });
  }

  /** A well-formed entry that is selected, and the state of its request id (null: none). */
  entry(e: Entry, id: IdState | null): void {
    const s = e.signature;
    if (s !== null) {
      let byRequest: Tally[][];
      if (s === this.lastSignature) {
        byRequest = this.lastTallies;
      } else {
        if (s === this.otherSignature) {
          byRequest = this.otherTallies;
        } else {
          let found = this.talliesOf.get(s);
          if (found === undefined) this.talliesOf.set(s, (found = []));
          byRequest = found;
        }
        this.otherSignature = this.lastSignature;
        this.otherTallies = this.lastTallies;
        this.lastSignature = s;
        this.lastTallies = byRequest;
      }
      const tallies = (byRequest[e.request] ??= this.talliesFor(s, e.request));
      for (let i = 0; i < tallies.length; i++) tallies[i].add(e, id);
      return;
    }
    if (e.kind !== 'IMAP' || e.detail === null) return;
    if (e.detail.includes('Could not connect to')) {
      this.tally('imap-unreachable').add(e, id);
      return;
    }
    const failure = loginFailure(e.detail);
    if (failure === null) return;
    const t = this.tally('imap-login-failed');
    t.add(e, id);
    t.breakdown.add(failure.user, failure.client);
  }

  /**
   * A DB Error without the shape, whose header is valid: malformed for the rules, but its
   * text may still say what went wrong (a failed connect has no `[code] message` shape).
   */
  malformedDb(e: Entry, id: IdState | null): void {
    if (e.detail === null) return;
    for (const k of KNOWLEDGE as readonly Knowledge[]) {
      const backend = k.dbText?.(e.detail) ?? null;
      if (backend === null) continue;
      const t = this.tally(k.id as DiagnosisId);
      t.backends.add(backend);
      t.add(e, id);
    }
  }

  /** Entries per diagnosis so far (both tables missing not yet told apart from one). */
  entriesById(): Partial<Record<DiagnosisId, number>> {
    const out: Partial<Record<DiagnosisId, number>> = {};
    for (const [id, t] of this.tallies) out[id] = t.entries;
    // Both tables missing is one diagnosis, as in result().
    if (out['local-calendar-table-missing'] !== undefined && out['remote-calendar-table-missing'] !== undefined) {
      out['calendar-tables-missing'] = out['local-calendar-table-missing'] + out['remote-calendar-table-missing'];
      delete out['local-calendar-table-missing'];
      delete out['remote-calendar-table-missing'];
    }
    return out;
  }

  /**
   * The diagnoses, in the order of the knowledge table; `ids` are the request ids in the
   * order of the report, `marks` each one's IdState.diagnosed, by its place there.
   */
  result(ids: ReportIds, marks: ArrayLike<number>): Diagnosis[] {
    const local = this.tallies.get('local-calendar-table-missing');
    const remote = this.tallies.get('remote-calendar-table-missing');
    const found = new Map(this.tallies);
    if (local && remote) {
      // Both missing is one problem with one fix, not two.
      const both = new Tally();
      both.merge(local);
      both.merge(remote);
      found.set('calendar-tables-missing', both);
      found.delete('local-calendar-table-missing');
      found.delete('remote-calendar-table-missing');
    }
    const picked: { k: Knowledge; t: Tally; listed: string[]; count: number }[] = [];
    for (const k of KNOWLEDGE as readonly Knowledge[]) {
      const t = found.get(k.id as DiagnosisId);
      if (t !== undefined && t.entries > 0) picked.push({ k, t, listed: [], count: 0 });
    }
    // Each diagnosis lists its first ids in report order, then counts the rest in a loop of
    // its own: this runs once a report, never compiled, over a hundred thousand ids.
    for (const p of picked) {
      const mark = p.t.mark;
      let i = 0;
      for (; i < ids.length && p.listed.length < REQUEST_IDS_LISTED; i++) if ((marks[i] & mark) !== 0) p.listed.push(ids.id(i));
      p.count = p.listed.length + countMarked(marks, i, ids.length, mark);
    }
    return picked.map((p) => this.describe(p.k, p.t, p.listed, p.count));
  }

  private describe(k: Knowledge, t: Tally, listed: string[], count: number): Diagnosis {
    const d: Diagnosis = {
      id: k.id as DiagnosisId,
      title: k.title,
      meaning: k.meaning,
      fix: stepsFor(k, t.backends),
      entries: t.entries,
      requestIds: listed,
      requestIdCount: count,
      first: (t.first as Moment).iso(),
      last: (t.last as Moment).iso(),
    };
    if (t.breakdown.size > 0) d.breakdown = t.breakdown.sorted();
    if (t.breakdown.others > 0) d.breakdownOthers = t.breakdown.others;
    return d;
  }
}
