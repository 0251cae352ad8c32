// What the summary counts: per request id, per signature, and in all (SPEC §5).
// Only well-formed entries are counted here; malformed ones are counted by the analyser.

import { isoAt } from '../parse/calendar.js';
import type { DbSignature } from '../parse/entry.js';
import type { Cadence, CadenceTracker } from './cadence.js';
import type { Runs } from './timeline.js';

export interface RequestIdRow {
  id: string;
  sessionSegments: string[];
  entries: number;
  refreshPairs: number;
  first: string;
  last: string;
  refreshCadence: Cadence;
}

export interface Signature {
  kind: string;
  code: string | null;
  message: string | null;
  count: number;
}

/** A moment as the log wrote it: the instant, and the offset it was written at. */
export class Moment {
  constructor(
    public instant: number,
    public offset: number,
    public negative: boolean,
  ) {}

  set(instant: number, offset: number, negative: boolean): void {
    this.instant = instant;
    this.offset = offset;
    this.negative = negative;
  }

  iso(): string {
    return isoAt(this.instant, this.offset, this.negative);
  }
}

/** What is kept per request id while reading. */
export interface IdState {
  id: string;
  /** Its pairing key, made once. */
  key: string;
  /** Every segment it was seen with (the rules see every entry). */
  segments: string[];
  /** What the report counts: selected entries only (all of them without filters). */
  selectedSegments: string[];
  entries: number;
  refreshPairs: number;
  first: Moment | null;
  last: Moment | null;
  /** Its refreshes (pairs, and lone lookups), for its cadence and its timeline row. */
  cadence: CadenceTracker;
  refreshBuckets: Runs | null;
}

export class SignatureCounter {
  /** DB errors by code and message; other kinds by kind. */
  private readonly db = new Map<string, Signature>();
  private readonly other = new Map<string, Signature>();

  addDb(s: DbSignature): void {
    const row = this.db.get(s.key);
    if (row !== undefined) row.count++;
    else this.db.set(s.key, { kind: 'DB', code: s.code, message: s.message, count: 1 });
  }

  addKind(kind: string): void {
    const row = this.other.get(kind);
    if (row !== undefined) row.count++;
    else this.other.set(kind, { kind, code: null, message: null, count: 1 });
  }

  /** By count, descending, then by kind, code and message. */
  rows(): Signature[] {
    return [...this.db.values(), ...this.other.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => b.count - a.count || cmp(a.kind, b.kind) || cmp(a.code ?? '', b.code ?? '') || cmp(a.message ?? '', b.message ?? ''));
  }
}

/** Code-unit order, the same on every machine and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
