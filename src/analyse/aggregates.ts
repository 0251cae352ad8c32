// What the summary counts: per request id, per signature, and in all (SPEC §5).
// Only well-formed entries are counted here; malformed ones are counted by the analyser.

import { isoAt } from '../parse/calendar.js';
import type { DbSignature } from '../parse/entry.js';
import { CadenceTracker, type Cadence } from './cadence.js';
import type { PackedRows } from './retired.js';
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

/**
 * What is kept per request id while reading: its pairing slot, its counts, its first and
 * last instants, its segments and its cadence. A busy server's log holds a hundred
 * thousand ids and a follower sees millions, so it is kept small: numbers in fields,
 * no objects where a number does, a second segment only when there is one.
 */
export class IdState extends CadenceTracker {
  /** Every segment it was seen with (the rules see every entry): the first, then the rest. */
  segment: string | null = null;
  moreSegments: string[] | null = null;
  /** What the report counts, with filters: the segments of selected entries. */
  selectedSegments: string[] | null = null;
  entries = 0;
  refreshPairs = 0;
  /** The diagnoses seen with it, one bit each (see diagnosis.ts). */
  diagnosed = 0;
  /** Its place in the report's order (-1: no selected entry yet), and the stream's time at its last entry. */
  order = -1;
  seenAt = 0;
  /** Earliest and latest selected instants, with the offset each was written at (NaN: none yet). */
  firstInstant = NaN;
  firstOffset = 0;
  firstNegative = false;
  lastInstant = NaN;
  lastOffset = 0;
  lastNegative = false;
  /** Its refreshes per timeline bucket, for the ids whose row the timeline keeps. */
  refreshBuckets: Runs | null = null;

  /** Its request id; set again only when the state is taken for another id (reuse). */
  constructor(public id: string) {
    super();
  }

  /**
   * Makes this state a new one for `id`, as the constructor would, keeping only the
   * histogram's array. A short-session log starts a new id every few dozen entries, and a
   * state made for each lived long enough to be copied out of V8's young generation.
   */
  reuse(id: string): void {
    this.id = id;
    this.pending = null;
    this.at = -1;
    this.clearCadence();
    this.segment = null;
    this.moreSegments = null;
    this.selectedSegments = null;
    this.entries = 0;
    this.refreshPairs = 0;
    this.diagnosed = 0;
    this.order = -1;
    this.seenAt = 0;
    this.firstInstant = NaN;
    this.firstOffset = 0;
    this.firstNegative = false;
    this.lastInstant = NaN;
    this.lastOffset = 0;
    this.lastNegative = false;
    this.refreshBuckets = null;
  }

  hasSegment(segment: string): boolean {
    return this.segment === segment || (this.moreSegments !== null && this.moreSegments.includes(segment));
  }

  addSegment(segment: string): void {
    if (this.segment === null) this.segment = segment;
    else (this.moreSegments ??= []).push(segment);
  }

  /** Every segment, in the order first seen. */
  segments(): string[] {
    return this.segment === null ? [] : this.moreSegments === null ? [this.segment] : [this.segment, ...this.moreSegments];
  }

  /** A selected entry at `instant`: true for the id's first one. */
  seen(instant: number, offset: number, negative: boolean): boolean {
    if (this.firstInstant !== this.firstInstant) {
      this.firstInstant = this.lastInstant = instant;
      this.firstOffset = this.lastOffset = offset;
      this.firstNegative = this.lastNegative = negative;
      return true;
    }
    if (instant < this.firstInstant) {
      this.firstInstant = instant;
      this.firstOffset = offset;
      this.firstNegative = negative;
    } else if (instant > this.lastInstant) {
      this.lastInstant = instant;
      this.lastOffset = offset;
      this.lastNegative = negative;
    }
    return false;
  }

  row(): RequestIdRow {
    return new MadeRow(
      this.id,
      this.selectedSegments ?? this.segments(),
      this.entries,
      this.refreshPairs,
      isoAt(this.firstInstant, this.firstOffset, this.firstNegative),
      isoAt(this.lastInstant, this.lastOffset, this.lastNegative),
      this.result(),
    );
  }
}

/**
 * The report's row of a request id, made from what is kept of it (an IdState, or its
 * packed form). Its keys are the report's, in the report's order; its stamps are
 * isoAt's, printable ASCII; its counts are numbers. A writer may so take its shape as
 * given (row-text.ts) where a row read back from a report, a plain object, is checked.
 */
export class MadeRow implements RequestIdRow {
  constructor(
    readonly id: string,
    readonly sessionSegments: string[],
    readonly entries: number,
    readonly refreshPairs: number,
    readonly first: string,
    readonly last: string,
    readonly refreshCadence: Cadence,
  ) {}
}

/** The request ids of a report, in order: each one's id and row, made when asked for. */
export interface RowSources {
  readonly length: number;
  id(i: number): string;
  row(i: number): RequestIdRow;
  /** The rows packed (retired.ts), for a writer of bytes, when they are. */
  packed?(): PackedRows | null;
}

/**
 * The report's request-id rows, made one at a time as they are read: a log of a hundred
 * thousand ids is listed without holding a hundred thousand rows.
 */
export class RequestIdList implements Iterable<RequestIdRow> {
  // A private field of the language, not of TypeScript: two lists are equal by their rows.
  readonly #sources: RowSources;

  constructor(sources: RowSources) {
    this.#sources = sources;
  }

  /** A list of rows already made (read back from a report). */
  static of(rows: readonly RequestIdRow[]): RequestIdList {
    return new RequestIdList({ length: rows.length, id: (i) => rows[i].id, row: (i) => rows[i] });
  }

  get length(): number {
    return this.#sources.length;
  }

  /** The row at `i`, 0 ≤ i < length: what a writer of every row reads. */
  row(i: number): RequestIdRow {
    return this.#sources.row(i);
  }

  at(i: number): RequestIdRow | undefined {
    const k = i < 0 ? this.length + i : i;
    return k >= 0 && k < this.length ? this.#sources.row(k) : undefined;
  }

  slice(start = 0, end = this.length): RequestIdRow[] {
    const out: RequestIdRow[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.length); i++) out.push(this.#sources.row(i));
    return out;
  }

  map<T>(f: (row: RequestIdRow) => T): T[] {
    return this.slice().map(f);
  }

  /** The rows packed, for a writer of bytes; null when they are not (rows read back from a report). */
  packed(): PackedRows | null {
    return this.#sources.packed?.() ?? null;
  }

  /** The ids alone, in order: no row is made. */
  ids(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.#sources.id(i));
    return out;
  }

  *[Symbol.iterator](): Iterator<RequestIdRow> {
    for (let i = 0; i < this.length; i++) yield this.#sources.row(i);
  }

  toJSON(): RequestIdRow[] {
    return this.slice();
  }
}

export class SignatureCounter {
  /** DB errors by code and message; other kinds by kind. */
  private readonly db = new Map<string, Signature>();
  private readonly other = new Map<string, Signature>();

  /**
   * The last two signatures counted, with their rows: a log's refreshes alternate between
   * two, and a reader hands out one object per signature, so a comparison by identity
   * spares the lookup by key (a string compare of some 50 characters, 3 million a GB).
   */
  private lastA: DbSignature | null = null;
  private rowA: Signature | null = null;
  private lastB: DbSignature | null = null;
  private rowB: Signature | null = null;

  addDb(s: DbSignature): void {
    if (s === this.lastA) {
      this.rowA!.count++;
      return;
    }
    if (s === this.lastB) {
      this.rowB!.count++;
      return;
    }
    let row = this.db.get(s.key);
    if (row === undefined) this.db.set(s.key, (row = { kind: 'DB', code: s.code, message: s.message, count: 0 }));
    row.count++;
    this.lastB = this.lastA;
    this.rowB = this.rowA;
    this.lastA = s;
    this.rowA = row;
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
