// Request ids at rest. A follower of a busy server sees a new session every few minutes
// for months: millions of request ids, of which a few dozen are active at once. An id
// idle for a while (and with no lookup pending) is packed into a byte arena, a hundred
// bytes or so instead of a few hundred in objects, and unpacked, exactly as it was, if
// it comes back. The report reads packed ids in place.

import { isoAt } from '../parse/calendar.js';
import { isPlain, NOT_PLAIN } from '../report/json-text.js';
import { IdState, MadeRow, type RequestIdRow } from './aggregates.js';
import { cadenceOf, gapArray, gapOf, median, placeOf } from './cadence.js';

const EMPTY = -1;
/** A place whose id came back (unpacked): probing goes on past it. */
const GONE = -2;

/** A packed state's flag: its gap histogram's places are packed as they are, not as steps (see wholePlaces). */
const RAW_PLACES = 8;

function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * The packed form: whole numbers as varints (7 bits a byte, zigzag for signed ones),
 * instants as varints when they are whole seconds, strings length-prefixed. A session's
 * numbers are small, so most take a byte or two. Written by functions of a buffer and a
 * position that return the position past what they wrote: a log of short sessions packs
 * a hundred thousand ids, and a position in a local stays in a register, where one kept
 * on a cursor object was loaded and stored for every byte (about 6,000 instructions an
 * id so, 4,900 now).
 */

/** A whole number 0 ≤ v < 2^53. */
function writeUint(buf: Buffer, at: number, v: number): number {
  // Past 2^31 in floating point (every first instant: a quotient and a product, exact
  // below 2^53, where `%` called the C library's fmod); below it in 32-bit integers.
  while (v > 0x7fffffff) {
    const q = Math.floor(v / 0x80);
    buf[at++] = (v - q * 0x80) | 0x80;
    v = q;
  }
  while (v >= 0x80) {
    buf[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf[at++] = v;
  return at;
}

/** Any number: a zigzag varint when it is a safe whole number, else a tag and 8 bytes. */
function writeNum(buf: Buffer, at: number, v: number): number {
  // The zigzag without a branch of arithmetic on the sign: an id's first negative number
  // came after V8 had compiled this, and threw the compiled code away (Cursor.num).
  const negative = v < 0 ? 1 : 0;
  if (Number.isSafeInteger(v) && Math.abs(v) < 2 ** 51) return writeUint(buf, at, v * (1 - 2 * negative) * 2 - negative);
  // Not a whole number (NaN, a fraction): tag 1 at the end of the zigzag range.
  at = writeUint(buf, at, 2 ** 52 + 1);
  buf.writeDoubleLE(v, at);
  return at + 8;
}

/**
 * Whether every string writeStr wrote since this was last set to true stands in JSON as it
 * is (printable ASCII but `"` and `\`): found in the pass that copies them. A pass of its
 * own over an id and its segments, for the report to know how to write its row, took
 * some 60 ns of the 400 that packing an id of *short* takes.
 */
let writtenPlain = true;

function writeStr(buf: Buffer, at: number, v: string): number {
  // Ids and segments are short ASCII: their length is one varint byte, their chars their
  // bytes, copied in one pass that also finds whether they are all ASCII (a pass to check,
  // then one to copy, took half as long again).
  const n = v.length;
  if (n < 0x80) {
    const from = at + 1;
    let all = 0;
    let odd = 0;
    for (let k = 0; k < n; k++) {
      const c = v.charCodeAt(k);
      all |= c;
      odd |= NOT_PLAIN[c & 0x7f];
      buf[from + k] = c;
    }
    if (all < 0x80) {
      if (odd !== 0) writtenPlain = false;
      buf[at] = n;
      return from + n;
    }
  }
  // 128 characters or more, or not ASCII: looked over on its own.
  if (!isPlain(v)) writtenPlain = false;
  // Written over: its room is reserved (packedSize).
  at = writeUint(buf, at, Buffer.byteLength(v, 'utf8'));
  return at + buf.write(v, at, 'utf8');
}

/** A list of strings, or null (length 0 is written as 1, null as 0). */
function writeStrs(buf: Buffer, at: number, v: readonly string[] | null): number {
  at = writeUint(buf, at, v === null ? 0 : v.length + 1);
  if (v !== null) for (let i = 0; i < v.length; i++) at = writeStr(buf, at, v[i]);
  return at;
}

/** An id's segments as writeStrs writes their list (IdState.segments()), without making the list. */
function writeSegments(buf: Buffer, at: number, s: IdState): number {
  if (s.segment === null) return writeUint(buf, at, 1);
  const more = s.moreSegments;
  at = writeUint(buf, at, more === null ? 2 : more.length + 2);
  at = writeStr(buf, at, s.segment);
  if (more !== null) for (let i = 0; i < more.length; i++) at = writeStr(buf, at, more[i]);
  return at;
}

/** Reads the packed form (see writeUint and the others). */
class Cursor {
  constructor(
    public buf: Buffer,
    public at: number,
  ) {}

  uint(): number {
    const buf = this.buf;
    let at = this.at;
    // The first four bytes (28 bits) in 32-bit integers, any more in floating point.
    let b = buf[at++];
    // Most numbers are one byte: a report reads a hundred thousand packed ids.
    if (b < 0x80) {
      this.at = at;
      return b;
    }
    let v = b & 0x7f;
    for (let shift = 7; b >= 0x80 && shift < 28; shift += 7) {
      b = buf[at++];
      v |= (b & 0x7f) << shift;
    }
    for (let scale = 2 ** 28; b >= 0x80; scale *= 0x80) {
      b = buf[at++];
      v += (b & 0x7f) * scale;
    }
    this.at = at;
    return v;
  }

  num(): number {
    const z = this.uint();
    if (z === 2 ** 52 + 1) {
      const r = this.buf.readDoubleLE(this.at);
      this.at += 8;
      return r;
    }
    // Without a branch on the sign: a report's first negative numbers (-1, and the last
    // refresh of a row with none, far below its first instant) came long after V8 had
    // compiled this, and threw the compiled code away. In 32-bit integers below 2^31
    // (nearly every number), where the double arithmetic cost more.
    if (z < 0x80000000) return (z >>> 1) ^ ((z << 31) >> 31);
    // Halved by a division and a floor, exact below 2^53: `%` on a double is a call of the
    // C library's fmod, once for every row's first instant read for a report.
    const half = Math.floor(z / 2);
    const odd = z - 2 * half;
    return half * (1 - 2 * odd) - odd;
  }

  str(): string {
    const n = this.uint();
    const r = this.buf.toString('utf8', this.at, this.at + n);
    this.at += n;
    return r;
  }

  strs(): string[] | null {
    const n = this.uint();
    if (n === 0) return null;
    const out: string[] = [];
    for (let i = 1; i < n; i++) out.push(this.str());
    return out;
  }
}

/** Bytes a state takes packed, at the most: 17 a number (a tag and 8 bytes), strings at 3 bytes a char. */
function packedSize(s: IdState): number {
  // The segments as writeSegments writes them: a count, the first, the rest.
  const segments = 8 + (s.segment === null ? 0 : strSize(s.segment)) + strsSize(s.moreSegments) - 8;
  return 17 + strSize(s.id) + segments + strsSize(s.selectedSegments) + 17 * (14 + 2 * s.gapPlaces());
}

/** A string's length varint and its bytes, at the most. */
function strSize(v: string): number {
  return 8 + 3 * v.length;
}

/** A list's count and its strings, at the most. */
function strsSize(v: readonly string[] | null): number {
  let n = 8;
  if (v !== null) for (let i = 0; i < v.length; i++) n += strSize(v[i]);
  return n;
}

/** What a packed state holds, as read back (see RetiredIds.read). */
interface Fields extends Numbers {
  order: number;
  id: string;
  segments: string[] | null;
  selected: string[] | null;
  diagnosed: number;
}

/** The numbers a packed state ends with, after its strings (see readScalars), but its gaps. */
interface Scalars {
  entries: number;
  refreshPairs: number;
  firstInstant: number;
  firstOffset: number;
  firstNegative: boolean;
  lastInstant: number;
  lastOffset: number;
  lastNegative: boolean;
  /** The cadence: refreshes, the last one, the longest gap (-1: none) and the gap histogram. */
  count: number;
  last: number;
  longest: number;
  /** The median gap, as cadence's median() gives it from the histogram: kept so that a row is written without reading the histogram. */
  median: number | null;
  /** Whether the row's id and listed segments stand in JSON as they are (see writtenPlain). */
  plain: boolean;
}

/** All of a packed state's numbers: its scalars and its gap histogram. */
interface Numbers extends Scalars {
  histogram: number[];
}

/**
 * A packed state's row, as the report writes it, without making a string: its id and
 * listed segments as byte ranges (UTF-8) of `block`, its numbers as they are. One record,
 * reused (see rawAt).
 */
export interface RawRow extends Scalars {
  block: Buffer;
  idAt: number;
  idLength: number;
  /** The segments the row lists (the selected ones, with filters): how many, and each one's range. */
  segments: number;
  segmentAt: number[];
  segmentLength: number[];
}

/** Packed states live in blocks of 1 MiB (none spans two): no doubling, no copy as they grow. */
const BLOCK_BITS = 20;
const BLOCK = 1 << BLOCK_BITS;
const FIRST_BLOCK = 1 << 14;

/** Every row of a report, packed: where each is, in the report's order. */
export interface PackedRows {
  rows: RetiredIds;
  /**
   * An Int32Array in a run, for the warming (Analyser.warmRows) and the report alike: the
   * writer compiled for one kind of array while warming threw its code away when the
   * report handed it another (the analyser's list of ids and states).
   */
  places: ArrayLike<number>;
}

export class RetiredIds {
  private readonly blocks: Buffer[] = [];
  /** The cursor of cursor(): no call holds it past its return. */
  private readonly at = new Cursor(Buffer.alloc(0), 0);
  /** The record of read(): no call holds it past its return. */
  private readonly fields: Fields = { order: 0, id: '', segments: null, selected: null, entries: 0, refreshPairs: 0, diagnosed: 0, firstInstant: 0, firstOffset: 0, firstNegative: false, lastInstant: 0, lastOffset: 0, lastNegative: false, count: 0, last: 0, longest: 0, median: null, plain: true, histogram: gapArray() };
  /** The record of rawAt(): no call holds it past its return. */
  private readonly raw: RawRow = { block: Buffer.alloc(0), idAt: 0, idLength: 0, segments: 0, segmentAt: [], segmentLength: [], entries: 0, refreshPairs: 0, firstInstant: 0, firstOffset: 0, firstNegative: false, lastInstant: 0, lastOffset: 0, lastNegative: false, count: 0, last: 0, longest: 0, median: null, plain: true };
  /** The gaps rowAt() reads: no call holds them past its return. */
  private readonly gaps: number[] = gapArray();
  /** Bytes used of the last block. */
  private used = 0;
  /** Open addressing: each place holds a packed state's offset, EMPTY or GONE... */
  private table = new Int32Array(1024).fill(EMPTY);
  /** ...and its id's hash: a probe unpacks only an id whose hash is the one sought. */
  private hashes = new Int32Array(1024);
  private count = 0;
  /** Places left GONE: they end no probe, so they count against the load too. */
  private gone = 0;

  get size(): number {
    return this.count;
  }

  /** A cursor at a packed state's place: its block, and its offset there. */
  private cursor(place: number): Cursor {
    // One cursor, moved: every packed id is read for the report, some many times.
    const c = this.at;
    c.buf = this.blocks[place >>> BLOCK_BITS];
    c.at = place & (BLOCK - 1);
    return c;
  }

  /** Packs `s` (its place in the report's order is `order`); returns where it is. */
  put(s: IdState, order: number): number {
    const need = packedSize(s);
    if (this.used + need > (this.blocks.length === 0 ? 0 : this.blocks[this.blocks.length - 1].length)) {
      // A state larger than a block (a hundred thousand distinct gaps) gets a block of its
      // own size. The first block is small: a short log packs its few ids at its end.
      const size = this.blocks.length === 0 ? FIRST_BLOCK : BLOCK;
      this.blocks.push(Buffer.allocUnsafeSlow(Math.max(size, need)));
      this.used = 0;
    }
    const at = ((this.blocks.length - 1) << BLOCK_BITS) | this.used;
    const buf = this.blocks[this.blocks.length - 1];
    let end = writeNum(buf, this.used, order);
    // The diagnoses' marks, for unpack: the analyser keeps a copy for the report (packedMarks).
    end = writeNum(buf, end, s.diagnosed);
    // The row lists the id and its segments, or with filters the segments selected: plain
    // when each of those is (see writtenPlain).
    writtenPlain = true;
    end = writeStr(buf, end, s.id);
    const idPlain = writtenPlain;
    end = writeSegments(buf, end, s);
    const segmentsPlain = writtenPlain;
    writtenPlain = true;
    end = writeStrs(buf, end, s.selectedSegments);
    const plain = s.selectedSegments === null ? segmentsPlain : idPlain && writtenPlain;
    end = writeNum(buf, end, s.entries);
    end = writeNum(buf, end, s.refreshPairs);
    // The last instants as distances from the first: small numbers.
    end = writeNum(buf, end, s.firstInstant);
    end = writeNum(buf, end, s.firstOffset);
    const h = s.gapHistogram();
    const places = s.gapPlaces();
    const steps = wholePlaces(h, places);
    end = writeNum(buf, end, (s.firstNegative ? 1 : 0) | (s.lastNegative ? 2 : 0) | (plain ? 4 : 0) | (steps ? 0 : RAW_PLACES));
    end = writeNum(buf, end, s.lastInstant - s.firstInstant);
    end = writeNum(buf, end, s.lastOffset);
    end = writeNum(buf, end, s.refreshes);
    end = writeNum(buf, end, s.lastRefresh - s.firstInstant);
    end = writeNum(buf, end, s.longestGap);
    // Twice the median, a whole number for whole gaps (the mean of two middle ones may end
    // in .5); -1: none. A report's rows read it, not the histogram, which a row of *short*
    // went over twice.
    const m = median(h, places);
    end = writeNum(buf, end, m === null ? -1 : 2 * m);
    end = writeUint(buf, end, places);
    if (steps) {
      // Each gap as the step from the one before (they are sorted) and its count: a byte
      // each for a session's gaps, where a place whole (gap × 2^22 + count, about 2^28 for
      // a minute) took five.
      let gap = 0;
      for (let i = 0; i < places; i++) {
        const next = gapOf(h[i]);
        end = writeUint(buf, end, next - gap);
        end = writeUint(buf, end, h[i] - placeOf(next, 0));
        gap = next;
      }
    } else for (let i = 0; i < places; i++) end = writeNum(buf, end, h[i]);
    // A place holds an offset of BLOCK_BITS: a block larger than BLOCK is its state's own,
    // even with room left (its room is reserved at three bytes a character), or the next
    // state's offset would run into the block's number.
    this.used = buf.length > BLOCK ? buf.length : end;
    // At most three quarters of the places taken or GONE: a probe always meets an EMPTY.
    if ((this.count + this.gone + 1) * 4 > this.table.length * 3) this.rehash();
    this.place(hashId(s.id), at);
    this.count++;
    return at;
  }

  private place(hash: number, offset: number): void {
    const mask = this.table.length - 1;
    let i = hash & mask;
    while (this.table[i] >= 0) i = (i + 1) & mask;
    if (this.table[i] === GONE) this.gone--;
    this.table[i] = offset;
    this.hashes[i] = hash;
  }

  /** A new table without the GONE places, twice as large when the live ones need it. */
  private rehash(): void {
    const old = this.table;
    const oldHashes = this.hashes;
    const size = (this.count + 1) * 2 > old.length ? old.length * 2 : old.length;
    this.table = new Int32Array(size).fill(EMPTY);
    this.hashes = new Int32Array(size);
    this.gone = 0;
    for (let i = 0; i < old.length; i++) if (old[i] >= 0) this.place(oldHashes[i], old[i]);
  }

  /** The packed state of `id`, unpacked and forgotten here, with its place in the order; or null. */
  take(id: string): { state: IdState; order: number } | null {
    const mask = this.table.length - 1;
    const h = hashId(id);
    for (let i = h & mask; this.table[i] !== EMPTY; i = (i + 1) & mask) {
      const offset = this.table[i];
      if (offset >= 0 && this.hashes[i] === h && this.idAt(offset) === id) {
        this.table[i] = GONE;
        this.gone++;
        this.count--;
        return this.unpack(offset);
      }
    }
    return null;
  }

  idAt(offset: number): string {
    const c = this.cursor(offset);
    // Past its place in the order and its diagnoses' marks.
    c.num();
    c.num();
    return c.str();
  }

  /**
   * The report's row of a packed state, read in place: what unpack and IdState.row()
   * would make, without making the state (a report lists a hundred thousand).
   */
  rowAt(offset: number): RequestIdRow {
    // The gaps only for the median, into the one array: no array a row.
    const f = this.read(offset, this.gaps);
    const first = isoAt(f.firstInstant, f.firstOffset, f.firstNegative);
    const last = isoAt(f.lastInstant, f.lastOffset, f.lastNegative);
    return new MadeRow(f.id, f.selected ?? f.segments ?? [], f.entries, f.refreshPairs, first, last, cadenceOf(f.count, f.longest, f.histogram));
  }

  /** The row of a packed state, its strings left as bytes where they are: for a writer of bytes (report/row-bytes.ts). */
  rawAt(offset: number): RawRow {
    const c = this.cursor(offset);
    const r = this.raw;
    r.block = c.buf;
    c.num();
    c.num();
    r.idLength = c.uint();
    r.idAt = c.at;
    c.at += r.idLength;
    // The row lists the selected segments when there are (filters), else all of them.
    const all = Math.max(0, this.rawStrs(c, 0));
    const selected = this.rawStrs(c, all);
    r.segments = all;
    if (selected >= 0) {
      for (let i = 0; i < selected; i++) {
        r.segmentAt[i] = r.segmentAt[all + i];
        r.segmentLength[i] = r.segmentLength[all + i];
      }
      r.segments = selected;
    }
    // The histogram, after them, is left unread.
    readScalars(c, r);
    return r;
  }

  /** A list of strings as ranges into raw's arrays from `from` on; returns how many (-1: null). */
  private rawStrs(c: Cursor, from: number): number {
    const n = c.uint() - 1;
    const r = this.raw;
    for (let i = 0; i < n; i++) {
      const length = c.uint();
      r.segmentAt[from + i] = c.at;
      r.segmentLength[from + i] = length;
      c.at += length;
    }
    return n;
  }

  unpack(offset: number): { state: IdState; order: number } {
    // A new array: the state keeps it.
    const f = this.read(offset, gapArray());
    const s = new IdState(f.id);
    for (const seg of f.segments ?? []) s.addSegment(seg);
    s.selectedSegments = f.selected;
    s.entries = f.entries;
    s.refreshPairs = f.refreshPairs;
    s.diagnosed = f.diagnosed;
    s.firstInstant = f.firstInstant;
    s.firstOffset = f.firstOffset;
    s.firstNegative = f.firstNegative;
    s.lastInstant = f.lastInstant;
    s.lastOffset = f.lastOffset;
    s.lastNegative = f.lastNegative;
    s.restoreCadence(f.count, f.last, f.longest, f.histogram);
    return { state: s, order: f.order };
  }

  /** A packed state's fields, in the order put() writes them, into one reused record; the gaps into `histogram`. */
  private read(offset: number, histogram: number[]): Fields {
    const c = this.cursor(offset);
    const f = this.fields;
    f.order = c.num();
    f.diagnosed = c.num();
    f.id = c.str();
    f.segments = c.strs();
    f.selected = c.strs();
    readNumbers(c, f, histogram);
    return f;
  }
}

/** The numbers of a packed state, at `c` past its strings, in the order put() writes them; the gaps into `histogram`. */
function readNumbers(c: Cursor, n: Numbers, histogram: number[]): void {
  const steps = readScalars(c, n);
  histogram.length = 0;
  const places = c.uint();
  if (steps) {
    let gap = 0;
    for (let k = 0; k < places; k++) {
      gap += c.uint();
      histogram.push(placeOf(gap, c.uint()));
    }
  } else for (let k = 0; k < places; k++) histogram.push(c.num());
  n.histogram = histogram;
}

/**
 * Whether a histogram's first `places` are whole numbers in order, each then packed as
 * its gap's step and its count; else (no log's gaps are so: its instants are whole
 * seconds) each place is packed as it is, flagged RAW_PLACES.
 */
function wholePlaces(h: readonly number[], places: number): boolean {
  // Sorted too, as a tracker keeps them: each step is then a whole number 0 or more.
  for (let i = 0, last = 0; i < places; last = h[i++]) if (!Number.isSafeInteger(h[i]) || h[i] < last) return false;
  return true;
}

/**
 * The numbers of a packed state before its gap histogram, at `c` past its strings; `c` is
 * left at the histogram. Returns whether its places are packed as steps (see put).
 */
function readScalars(c: Cursor, n: Scalars): boolean {
  n.entries = c.num();
  n.refreshPairs = c.num();
  n.firstInstant = c.num();
  n.firstOffset = c.num();
  const flags = c.num();
  n.firstNegative = (flags & 1) !== 0;
  n.lastNegative = (flags & 2) !== 0;
  n.plain = (flags & 4) !== 0;
  n.lastInstant = n.firstInstant + c.num();
  n.lastOffset = c.num();
  n.count = c.num();
  n.last = n.firstInstant + c.num();
  n.longest = c.num();
  const twice = c.num();
  n.median = twice < 0 ? null : twice / 2;
  return (flags & RAW_PLACES) === 0;
}

