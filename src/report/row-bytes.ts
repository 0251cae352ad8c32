// The report's request-id list, written as UTF-8 bytes straight from the packed rows
// (retired.ts): ids and segments are copied as the bytes they are packed in, numbers and
// stamps are written digit by digit. Made as strings (rowAt, then rowText), a row cost
// about 4 µs and the list of *short* (117,000 ids, 43 MB) 400-500 ms, with one core busy
// and the rest of the run done; as bytes, 2.6 µs a row where words went byte by byte,
// digits by Math.floor and gaps into a number[], 1.7 since (117,000 rows of *short*'s
// shape, 15 passes); its median and whether its strings are plain are kept when it is
// packed, so that its gap histogram is not read (a row of *short* 300 MB: 1.05 µs → 0.74
// at best; the list of *short* in a run: 249-257 ms → 137-187). The text is that of
// listText(rowText) over the same rows (a test holds it to that); a row with anything
// JSON would escape is written by rowText.

import type { RowWarming } from '../analyse/analyser.js';
import type { PackedRows, RawRow, RetiredIds } from '../analyse/retired.js';
import { asciiInto } from '../parse/bytes.js';
import { isoInto, primeStamps } from '../parse/calendar.js';
import { WRITE_PIECE, type ReportPiece } from './reporter.js';
import { rowText } from './row-text.js';
import { digits, digitsBefore, FLAT, INDENTED, Templates, writeFromTemplate, type Words } from './row-templates.js';

/** Room a row takes besides its strings: keys, indentation, numbers, two stamps. */
const ROW_ROOM = 512;

/**
 * Rows written as bytes into two buffers in turn, lent in pieces of about a write
 * (ReportPiece): a piece is written out while the next is made in the other buffer, and
 * the one after the next is written over it. Not a new buffer a piece: such buffers,
 * outside V8's heap, waited for a collection (a million-id stream's peak RSS rose by
 * 15-20 MiB, and *short*'s rows took longer). Not text either: read as Latin-1 and made
 * bytes again by the write, *short*'s report after finish() took longer (six interleaved
 * runs each: a median of 203 ms against 178).
 */
class Pieces {
  buf: Buffer;
  /** The buffer of the piece lent last, being written out while this one fills. */
  private lent: Buffer;
  at = 0;

  /** Pieces of about `size` bytes (a write), each with room for one more row. */
  constructor(readonly size: number) {
    this.buf = Buffer.allocUnsafeSlow(2 * size);
    this.lent = Buffer.allocUnsafeSlow(2 * size);
  }

  /**
   * Whether `n` more bytes fit; when they do not and the piece is empty, it is made large
   * enough first (a row larger than a piece), so that false means: hand the piece on.
   */
  fits(n: number): boolean {
    if (this.at + n <= this.buf.length) return true;
    if (this.at > 0) return false;
    this.buf = Buffer.allocUnsafeSlow(n);
    return true;
  }

  /** The piece, lent (see ReportPiece); the next is made in the other buffer. */
  take(): Uint8Array {
    const full = this.buf;
    const piece = full.subarray(0, this.at);
    this.buf = this.lent;
    this.lent = full;
    this.at = 0;
    return piece;
  }

  put(bytes: Uint8Array): void {
    // TypedArray#set, a copy in C++: a word of 15 bytes took 30 ns, against 45 byte by byte.
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  copy(from: Uint8Array, at: number, length: number): void {
    const buf = this.buf;
    let to = this.at;
    for (let i = at; i < at + length; i++) buf[to++] = from[i];
    this.at = to;
  }

  /** A number as JSON writes it (null when not finite); whole ones digit by digit. */
  number(n: number | null): void {
    if (n === null || !Number.isFinite(n)) {
      this.ascii('null');
    } else if (Number.isInteger(n) && n >= 0 && n < 2 ** 31) {
      this.at += digits(n);
      digitsBefore(this.buf, this.at, n);
    } else {
      this.ascii(String(n));
    }
  }

  ascii(text: string): void {
    this.at = asciiInto(this.buf, this.at, text);
  }
}

function writeRow(out: Pieces, r: RawRow, w: Words): void {
  out.put(w.id);
  out.copy(r.block, r.idAt, r.idLength);
  if (r.segments === 0) {
    out.put(w.noSegments);
  } else {
    for (let i = 0; i < r.segments; i++) {
      out.put(i === 0 ? w.firstSegment : w.nextSegment);
      out.copy(r.block, r.segmentAt[i], r.segmentLength[i]);
    }
    out.put(w.lastSegment);
  }
  out.number(r.entries);
  out.put(w.refreshPairs);
  out.number(r.refreshPairs);
  out.put(w.first);
  out.at = isoInto(out.buf, out.at, r.firstInstant, r.firstOffset, r.firstNegative);
  out.put(w.last);
  out.at = isoInto(out.buf, out.at, r.lastInstant, r.lastOffset, r.lastNegative);
  out.put(w.refreshes);
  out.number(r.count);
  out.put(w.median);
  out.number(r.median);
  out.put(w.longest);
  out.number(r.longest < 0 ? null : r.longest);
  out.put(w.end);
}

const INDENTED_TEMPLATES = new Templates(INDENTED);
const FLAT_TEMPLATES = new Templates(FLAT);

/** The bytes a row may take: its strings (as packed) and ROW_ROOM. */
function rowSize(r: RawRow): number {
  let n = ROW_ROOM + r.idLength;
  for (let i = 0; i < r.segments; i++) n += r.segmentLength[i] + 16;
  return n;
}

/**
 * The list of packed rows, brackets and all, as listText(rows, rowText, indent) writes
 * it, in pieces of about a write (`pieceBytes`).
 */
export function* packedRowsText(packed: PackedRows, indent: boolean, pieceBytes = WRITE_PIECE): Generator<ReportPiece> {
  const { rows, places } = packed;
  if (places.length === 0) {
    yield '[]';
    return;
  }
  const w = indent ? INDENTED : FLAT;
  const templates = indent ? INDENTED_TEMPLATES : FLAT_TEMPLATES;
  const out = new Pieces(pieceBytes);
  out.put(w.open);
  for (let i = 0; i < places.length; ) {
    i = writeRows(out, rows, places, i, w, templates, indent);
    if (i < places.length || out.at >= out.size) yield out.take();
  }
  out.put(w.close);
  yield out.take();
}

/**
 * Rows from the `i`-th on into `out`, until it holds a piece (its size), the next row
 * does not fit, or the list ends; returns the index of the next row. The loop is here,
 * not in the generator: V8 compiles a generator's loop only for its next call (it cannot
 * replace a generator's running code), so the one call of a report ran its loop
 * uncompiled, however warm (ROW_WARMING): 9–19 ms every 8,192 rows of *short*, falling
 * to 9 only some 50,000 rows in, where a plain function is compiled while it runs.
 */
function writeRows(out: Pieces, rows: RetiredIds, places: ArrayLike<number>, i: number, w: Words, templates: Templates, indent: boolean): number {
  for (; i < places.length; i++) {
    const r = rows.rawAt(places[i]);
    // Plain: its strings stand in JSON as they are, as found when it was packed (a stamp
    // out of the ordinary is isoInto's to write).
    if (r.plain) {
      if (!out.fits(rowSize(r))) return i;
      const t = templates.of(r);
      const end = t === null ? -1 : writeFromTemplate(out.buf, out.at, r, t, i === 0);
      if (end >= 0) {
        out.at = end;
      } else {
        if (i > 0) out.put(w.between);
        writeRow(out, r, w);
      }
    } else {
      // Anything JSON escapes, or not ASCII: rowText writes it.
      const text = rowText(rows.rowAt(places[i]), indent);
      if (!out.fits(Buffer.byteLength(text, 'utf8') + 16)) return i;
      if (i > 0) out.put(w.between);
      out.at += out.buf.write(text, out.at, 'utf8');
    }
    if (out.at >= out.size) return i + 1;
  }
  return i;
}

/**
 * The writer run over 1,024 rows once 4,096 ids are packed, its text dropped, so that V8
 * has compiled it by the report. Real rows, not made-up ones: what the code is compiled
 * for is what it will meet. *short* (117,149 ids), five interleaved runs each, the time
 * writeRows took for the whole list: 155–202 ms unwarmed (its first 8,192 rows 32–48
 * ms), 125–144 warmed on 1,024 rows (12–17 ms), 130–161 on 2,048; the warming takes
 * 18–24 ms of the analysing thread during the reading, while the worker keeps the other
 * core busy. From 4,096 packed ids, not 16,384: *busy* (9,025 ids) never got there, and
 * wrote its whole list cold; from `finish()` to the exit, its JSON read through a pipe,
 * five interleaved runs each: 80–109 ms (median 94) → 45–75 (median 47). *short*'s
 * report the same either way (120–170 ms, to /dev/null). Below 4,096 ids, a cold list
 * takes about as long as the warming would.
 *
 * Twice over, in pieces of 16 KiB: V8 compiles a function once it has run a while with
 * type feedback that holds still, and collects none over a function's first calls. Once
 * over in one piece, rawAt and writeRows were still uncompiled at the report (`--trace-
 * opt`), and the report's first 20 ms ran mostly in V8's baseline code (`perf`); the
 * numbers of a row read whole (rowAt, unpack) met later threw rawAt's compiled reading
 * away. Twice, the warming takes 6 ms more and the report 14-16 ms less (first byte to
 * exit, *short* 1 GB, six and eight interleaved runs: 89.5-90.5 → 74-76.5); three times,
 * no less than twice.
 */
const WARMING_PASSES = 2;
const WARMING_PIECE = 16 << 10;

export const ROW_WARMING: RowWarming = {
  after: 4_096,
  rows: 1_024,
  write(packed: PackedRows): void {
    primeStamps();
    for (let pass = 0; pass < WARMING_PASSES; pass++) {
      // A row read whole too, as one that JSON escapes is (and as an id that comes back is
      // unpacked): the reading of their numbers, shared, then meets both records.
      if (packed.places.length > 0) packed.rows.rowAt(packed.places[0]);
      for (const piece of packedRowsText(packed, true, WARMING_PIECE)) void piece;
    }
  },
};
