// Recognises the known signatures (knowledge.ts) among the entries and says how many,
// for which request ids, and when: the diagnosis section of the reports.

import type { DbSignature, Entry } from '../parse/entry.js';
import { RequestCode } from '../parse/request.js';
import { Side } from '../parse/table.js';
import { Moment } from './aggregates.js';
import { KNOWLEDGE, type Knowledge } from './knowledge.js';

export interface Diagnosis {
  id: string;
  title: string;
  meaning: string;
  fix: string[];
  entries: number;
  requestIds: string[];
  first: string;
  last: string;
  /** IMAP login failures: counts by user and client address, most first. */
  breakdown?: { user: string; client: string; count: number }[];
}

class Tally {
  entries = 0;
  readonly ids = new Set<string>();
  /** The id added last: entries of one session come in runs. */
  private lastId: string | null = null;
  first: Moment | null = null;
  last: Moment | null = null;
  readonly breakdown = new Map<string, { user: string; client: string; count: number }>();

  add(e: Entry): void {
    this.entries++;
    if (e.requestId !== null && e.requestId !== this.lastId) {
      this.ids.add(e.requestId);
      this.lastId = e.requestId;
    }
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
    for (const id of other.ids) this.ids.add(id);
    if (other.first && (!this.first || other.first.instant < this.first.instant)) this.first = new Moment(other.first.instant, other.first.offset, other.first.negative);
    if (other.last && (!this.last || other.last.instant > this.last.instant)) this.last = new Moment(other.last.instant, other.last.offset, other.last.negative);
  }
}

/** `Login failed for <user> against <host> from <client>. <answer>`: user and client. */
export function loginFailure(text: string): { user: string; client: string } | null {
  const start = 'Login failed for ';
  const at = text.indexOf(start);
  if (at < 0) return null;
  const against = text.indexOf(' against ', at + start.length);
  const from = against < 0 ? -1 : text.indexOf(' from ', against);
  if (from < 0) return null;
  const end = text.indexOf('. ', from);
  return { user: text.slice(at + start.length, against), client: text.slice(from + ' from '.length, end < 0 ? undefined : end) };
}

/** The diagnoses a DB error signature belongs to. */
function signatureTags(s: DbSignature, request: RequestCode): string[] {
  const tags: string[] = [];
  if (s.tableSide === Side.Local) tags.push('local-calendar-table-missing');
  else if (s.tableSide === Side.Remote) tags.push('remote-calendar-table-missing');
  if (s.message.includes('database is locked')) tags.push('database-locked');
  if (s.message.includes('attempt to write a readonly database')) tags.push('database-readonly');
  if (s.code === '' && s.message === '' && (request === RequestCode.Login || request === RequestCode.Entry)) tags.push('empty-db-error');
  return tags;
}

export class DiagnosisCollector {
  private readonly tallies = new Map<string, Tally>();
  /** The tallies of each signature, per request kind: a log repeats a few signatures millions of times. */
  private readonly talliesOf = new WeakMap<DbSignature, Tally[][]>();

  private tally(id: string): Tally {
    let t = this.tallies.get(id);
    if (t === undefined) this.tallies.set(id, (t = new Tally()));
    return t;
  }

  /** A well-formed entry that is selected. */
  entry(e: Entry): void {
    const s = e.signature;
    if (s !== null) {
      let byRequest = this.talliesOf.get(s);
      if (byRequest === undefined) this.talliesOf.set(s, (byRequest = []));
      const tallies = (byRequest[e.request] ??= signatureTags(s, e.request).map((tag) => this.tally(tag)));
      for (let i = 0; i < tallies.length; i++) tallies[i].add(e);
      return;
    }
    if (e.kind !== 'IMAP' || e.detail === null) return;
    if (e.detail.includes('Could not connect to')) {
      this.tally('imap-unreachable').add(e);
      return;
    }
    const failure = loginFailure(e.detail);
    if (failure === null) return;
    const t = this.tally('imap-login-failed');
    t.add(e);
    const key = `${failure.user}\u0000${failure.client}`;
    const row = t.breakdown.get(key);
    if (row) row.count++;
    else t.breakdown.set(key, { ...failure, count: 1 });
  }

  /** The diagnoses, in the order of the knowledge table. */
  result(): Diagnosis[] {
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
    const out: Diagnosis[] = [];
    for (const k of KNOWLEDGE) {
      const t = found.get(k.id);
      if (t === undefined || t.entries === 0) continue;
      out.push(this.describe(k, t));
    }
    return out;
  }

  private describe(k: Knowledge, t: Tally): Diagnosis {
    const d: Diagnosis = {
      id: k.id,
      title: k.title,
      meaning: k.meaning,
      fix: k.fix,
      entries: t.entries,
      requestIds: [...t.ids],
      first: (t.first as Moment).iso(),
      last: (t.last as Moment).iso(),
    };
    if (t.breakdown.size > 0) {
      d.breakdown = [...t.breakdown.values()].sort(
        (a, b) => b.count - a.count || (a.user < b.user ? -1 : a.user > b.user ? 1 : 0) || (a.client < b.client ? -1 : a.client > b.client ? 1 : 0),
      );
    }
    return d;
  }
}
