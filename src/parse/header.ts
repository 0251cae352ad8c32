// The entry header `[DD-Mon-YYYY HH:MM:SS ZONE]`, read straight from the bytes: this runs
// on every input line, so it makes no string unless a zone name has to be looked up.

import { daysFromCivil, daysInMonth, monthNumberAt } from './calendar.js';
import { isDigit } from './bytes.js';
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

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function num2(buf: Buffer, at: number): number {
  return (buf[at] - 0x30) * 10 + buf[at + 1] - 0x30;
}

/** The fixed part of an entry start, `[DD-Mon-YYYY HH:MM:SS `, at `start`. */
export function entryStartPrefix(buf: Buffer, start: number, end: number): boolean {
  if (end - start < ZONE_AT + 2 || buf[start] !== OPEN) return false;
  const b = start;
  return (
    isDigit(buf[b + 1]) && isDigit(buf[b + 2]) && buf[b + 3] === DASH &&
    isLetter(buf[b + 4]) && isLetter(buf[b + 5]) && isLetter(buf[b + 6]) && buf[b + 7] === DASH &&
    isDigit(buf[b + 8]) && isDigit(buf[b + 9]) && isDigit(buf[b + 10]) && isDigit(buf[b + 11]) &&
    buf[b + 12] === SPACE &&
    isDigit(buf[b + 13]) && isDigit(buf[b + 14]) && buf[b + 15] === COLON &&
    isDigit(buf[b + 16]) && isDigit(buf[b + 17]) && buf[b + 18] === COLON &&
    isDigit(buf[b + 19]) && isDigit(buf[b + 20]) && buf[b + 21] === SPACE
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
 * Reads header stamps. One log holds few distinct dates: it remembers the last one's day
 * number, so most stamps cost no calendar arithmetic.
 */
export class StampReader {
  /** The last valid date's bytes as a number (day, month letters, year), and its day number. */
  private lastDateKey = -1;
  private lastDays = 0;

  /**
   * Reads the stamp of a header whose closing `]` is at `close` into `out`; false when the
   * header is malformed (no such month or day, a time out of range, an unknown zone).
   */
  read(buf: Buffer, start: number, close: number, out: Stamp): boolean {
    const b = start;
    const day = num2(buf, b + 1);
    const year = num2(buf, b + 8) * 100 + num2(buf, b + 10);
    const hour = num2(buf, b + 13);
    const minute = num2(buf, b + 16);
    const second = num2(buf, b + 19);
    if (hour > 23 || minute > 59 || second > 59) return false;
    // The month's three letters, as they are: a date seen last time needs no lookup.
    const dateKey = ((year * 100 + day) * 0x1000000) + ((buf[b + 4] << 16) | (buf[b + 5] << 8) | buf[b + 6]);
    if (dateKey !== this.lastDateKey) {
      const month = monthNumberAt(buf, b + 4);
      if (month === 0 || day < 1 || day > daysInMonth(year, month)) return false;
      this.lastDateKey = dateKey;
      this.lastDays = daysFromCivil(year, month, day);
    }
    const wall = this.lastDays * 86400 + hour * 3600 + minute * 60 + second;
    return readZone(buf, b + ZONE_AT, close, wall, out);
  }
}

/** The zone token [z, close) applied to a wall time; false for no valid zone. */
function readZone(buf: Buffer, z: number, close: number, wall: number, out: Stamp): boolean {
  const sign = buf[z];
  if (close - z === 5 && (sign === PLUS || sign === DASH) && isDigit(buf[z + 1]) && isDigit(buf[z + 2]) && isDigit(buf[z + 3]) && isDigit(buf[z + 4])) {
    const oh = num2(buf, z + 1);
    const om = num2(buf, z + 3);
    if (oh > 14 || om > 59) return false;
    const negative = sign === DASH;
    // 0 - x, not -1 * x: `-0000` is an offset of 0 (its sign is kept in `negative`), never -0.
    const offset = negative ? 0 - (oh * 3600 + om * 60) : oh * 3600 + om * 60;
    out.instant = wall - offset;
    out.offset = offset;
    out.negative = negative;
    return true;
  }
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
