// The entry header `[DD-Mon-YYYY HH:MM:SS ZONE]`, read straight from the bytes: this runs
// on every input line, so it makes no string unless a zone name has to be looked up.

import { daysFromCivil, daysInMonth, monthNumberAt } from './calendar.js';
import { namedZone } from './zone.js';

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const DASH = 0x2d;
const COLON = 0x3a;
const SPACE = 0x20;
const PLUS = 0x2b;
const LT = 0x3c; // <
const GT = 0x3e; // >

/** Offset of the zone token from the start of a header line. */
const ZONE_AT = 22;

function num2(buf: Buffer, at: number): number {
  return (buf[at] - 0x30) * 10 + buf[at + 1] - 0x30;
}

/**
 * A DataView of the last buffer looked at: the fixed part of a header is read as words
 * (see entryStartPrefix). Made again only for another buffer (the assembler hands on one
 * view of its buffer per block it reads), so that a line costs one comparison here.
 */
let wordsFor: Buffer | null = null;
let words: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

function wordsOf(buf: Buffer): DataView<ArrayBufferLike> {
  if (buf !== wordsFor) {
    wordsFor = buf;
    words = new DataView(buf.buffer, buf.byteOffset, buf.length);
  }
  return words;
}

/** Bytes a word holds (little-endian): each 0x30-0x39 (a SWAR test: no byte of either sum or difference reaches 0x80). */
function allDigits4(w: number): boolean {
  return (((w - 0x30303030) | (w + 0x46464646)) & 0x80808080) === 0;
}

/** The three low bytes of a word: each an ASCII letter (case folded to 0x61-0x7a, then as allDigits4). */
function allLetters3(w: number): boolean {
  const y = (w & 0xffffff) | 0x202020;
  return (((y - 0x616161) | (y + 0x050505)) & 0x808080) === 0;
}

/**
 * The fixed part of an entry start, `[DD-Mon-YYYY HH:MM:SS `, at `start`. It runs on every
 * line: read as five words and a half and tested a word at a time, not a byte at a time
 * (each byte with its own bounds check), it takes some 150 fewer instructions a line.
 */
export function entryStartPrefix(buf: Buffer, start: number, end: number): boolean {
  if (end - start < ZONE_AT + 2 || buf[start] !== OPEN) return false;
  const v = wordsOf(buf);
  const b = start;
  // Bytes 0-3 `[DD-`, 4-7 `Mon-`, 8-11 `YYYY`, 12-15 ` HH:`, 16-19 `MM:S`, 20-21 `S `.
  const w0 = v.getInt32(b, true);
  const w1 = v.getInt32(b + 4, true);
  const w3 = v.getInt32(b + 12, true);
  const w4 = v.getInt32(b + 16, true);
  const w5 = v.getUint16(b + 20, true);
  return (
    (w0 & 0xff0000ff) === (DASH << 24 | OPEN) && allDigits4((w0 & 0xffff00) | 0x30000030) &&
    w1 >>> 24 === DASH && allLetters3(w1) &&
    allDigits4(v.getInt32(b + 8, true)) &&
    (w3 & 0xff0000ff) === (COLON << 24 | SPACE) && allDigits4((w3 & 0xffff00) | 0x30000030) &&
    (w4 & 0xff0000) === COLON << 16 && allDigits4((w4 & ~0xff0000) | 0x300000) &&
    w5 >>> 8 === SPACE && allDigits4((w5 & 0xff) | 0x30303000)
  );
}

/**
 * If the line [start, end) starts an entry (SPEC §1: `[`, 2 digits, `-`, 3 letters, `-`,
 * 4 digits, space, `HH:MM:SS` digits, space, a zone token without spaces, `]`), the index
 * of its closing `]`; otherwise -1. Says nothing about whether the values are valid.
 */
export function entryStartClose(buf: Buffer, start: number, end: number): number {
  if (!entryStartPrefix(buf, start, end)) return -1;
  // The zone token: one or more bytes, none a space, up to the first `]`.
  for (let i = start + ZONE_AT; i < end; i++) {
    const c = buf[i];
    if (c === CLOSE) return i > start + ZONE_AT ? i : -1;
    if (c === SPACE) return -1;
  }
  return -1;
}

/** A header's moment: the instant, and the offset the wall clock was written at. */
export interface Stamp {
  /** Seconds since the epoch. */
  instant: number;
  /** UTC offset in seconds. */
  offset: number;
  /** True for a written negative offset, so that `-0000` stays `-00:00`. */
  negative: boolean;
}

/**
 * Reads header stamps. A log's entries come many to a minute and all in one zone: it
 * remembers the last minute's bytes and wall-clock seconds, the last date's day number
 * and the last numeric zone, so that most stamps cost a few comparisons of words (read
 * as entryStartPrefix reads them) and the seconds' two digits.
 */
export class StampReader {
  /** The last valid date's bytes as a number (day, month letters, year), and its day number. */
  private lastDateKey = -1;
  private lastDays = 0;
  /** The last minute's bytes `[DD-Mon-YYYY HH:MM` as words (see read), and its wall-clock seconds; NaN: no such minute. */
  private minute0 = 0;
  private minute1 = 0;
  private minute2 = 0;
  private minute3 = 0;
  private minute4 = 0;
  private minuteWall = NaN;
  /** The last numeric zone (`+HHMM`): its sign byte, its digits as a word, and what it reads as. */
  private zoneSign = -1;
  private zoneDigits = 0;
  private zoneOffset = 0;
  private zoneNegative = false;

  /**
   * Reads the stamp of a header whose closing `]` is at `close` into `out`; false when the
   * header is malformed (no such month or day, a time out of range, an unknown zone). The
   * header's fixed part is one entryStartPrefix accepted.
   */
  read(buf: Buffer, start: number, close: number, out: Stamp): boolean {
    const b = start;
    const v = wordsOf(buf);
    const w0 = v.getInt32(b, true);
    const w1 = v.getInt32(b + 4, true);
    const w2 = v.getInt32(b + 8, true);
    const w3 = v.getInt32(b + 12, true);
    const w4 = v.getInt32(b + 16, true) & 0xffff;
    if (w0 !== this.minute0 || w1 !== this.minute1 || w2 !== this.minute2 || w3 !== this.minute3 || w4 !== this.minute4) {
      this.minute0 = w0;
      this.minute1 = w1;
      this.minute2 = w2;
      this.minute3 = w3;
      this.minute4 = w4;
      this.minuteWall = this.minuteOf(buf, b);
    }
    const second = num2(buf, b + 19);
    if (this.minuteWall !== this.minuteWall || second > 59) return false;
    const wall = this.minuteWall + second;
    const z = b + ZONE_AT;
    if (close - z === 5) {
      const sign = buf[z];
      const digits = v.getInt32(z + 1, true);
      if (sign !== this.zoneSign || digits !== this.zoneDigits) {
        if ((sign !== PLUS && sign !== DASH) || !allDigits4(digits)) return readNamedZone(buf, z, close, wall, out);
        const oh = num2(buf, z + 1);
        const om = num2(buf, z + 3);
        if (oh > 14 || om > 59) return false;
        const negative = sign === DASH;
        this.zoneSign = sign;
        this.zoneDigits = digits;
        // 0 - x, not -1 * x: `-0000` is an offset of 0 (its sign is kept in `negative`), never -0.
        this.zoneOffset = negative ? 0 - (oh * 3600 + om * 60) : oh * 3600 + om * 60;
        this.zoneNegative = negative;
      }
      out.instant = wall - this.zoneOffset;
      out.offset = this.zoneOffset;
      out.negative = this.zoneNegative;
      return true;
    }
    return readNamedZone(buf, z, close, wall, out);
  }

  /** The wall-clock seconds of the minute `DD-Mon-YYYY HH:MM` of the header at `b`, or NaN when there is no such minute. */
  private minuteOf(buf: Buffer, b: number): number {
    const day = num2(buf, b + 1);
    const year = num2(buf, b + 8) * 100 + num2(buf, b + 10);
    const hour = num2(buf, b + 13);
    const minute = num2(buf, b + 16);
    if (hour > 23 || minute > 59) return NaN;
    // The month's three letters, as they are: a date seen last time needs no lookup.
    const dateKey = ((year * 100 + day) * 0x1000000) + ((buf[b + 4] << 16) | (buf[b + 5] << 8) | buf[b + 6]);
    if (dateKey !== this.lastDateKey) {
      const month = monthNumberAt(buf, b + 4);
      if (month === 0 || day < 1 || day > daysInMonth(year, month)) return NaN;
      this.lastDateKey = dateKey;
      this.lastDays = daysFromCivil(year, month, day);
    }
    return this.lastDays * 86400 + hour * 3600 + minute * 60;
  }
}

/** A zone token [z, close) other than `+HHMM` or `-HHMM`, by name, applied to a wall time; false for no such zone. */
function readNamedZone(buf: Buffer, z: number, close: number, wall: number, out: Stamp): boolean {
  const zone = namedZone(buf.toString('latin1', z, close));
  if (zone === null) return false;
  const reading = zone.read(wall);
  out.instant = reading.instant;
  out.offset = reading.offset;
  out.negative = reading.offset < 0;
  return true;
}

/** Where the body starts: after `]: ` (the service's shape) or `] ` (PHP's own). */
export function bodyStart(buf: Buffer, close: number, lineEnd: number): number {
  if (close + 2 < lineEnd && buf[close + 1] === COLON && buf[close + 2] === SPACE) return close + 3;
  if (close + 1 < lineEnd && buf[close + 1] === SPACE) return close + 2;
  return close + 1;
}

/**
 * The request id token `<…> ` at `at` (1 to 64 characters, no space, no `>`, a space after):
 * the index of its `>`, or -1 when there is none.
 */
export function requestIdClose(buf: Buffer, at: number, lineEnd: number): number {
  if (at >= lineEnd || buf[at] !== LT) return -1;
  let chars = 0;
  for (let i = at + 1; i < lineEnd; i++) {
    const c = buf[i];
    if (c === GT) return chars >= 1 && i + 1 < lineEnd && buf[i + 1] === SPACE ? i : -1;
    if (c === SPACE) return -1;
    // Count characters, not bytes: UTF-8 continuation bytes do not start one.
    if ((c & 0xc0) !== 0x80 && ++chars > 64) return -1;
  }
  return -1;
}

/** Why readStamp refused a header, in a few words for the report. */
export function stampProblem(buf: Buffer, start: number, close: number): string {
  const b = start;
  const month = monthNumberAt(buf, b + 4);
  const monthText = buf.toString('latin1', b + 4, b + 7);
  if (month === 0) return `no month "${monthText}"`;
  const day = num2(buf, b + 1);
  const year = num2(buf, b + 8) * 100 + num2(buf, b + 10);
  if (day < 1 || day > daysInMonth(year, month)) return `no day ${buf.toString('latin1', b + 1, b + 3)} in ${monthText} ${year}`;
  if (num2(buf, b + 13) > 23 || num2(buf, b + 16) > 59 || num2(buf, b + 19) > 59) {
    return `no time ${buf.toString('latin1', b + 13, b + 21)}`;
  }
  // A zone token can be as long as the line: show its start.
  const zone = buf.toString('utf8', b + ZONE_AT, Math.min(close, b + ZONE_AT + 64));
  return `unknown zone "${zone}${close - (b + ZONE_AT) > 64 ? '…' : ''}"`;
}
