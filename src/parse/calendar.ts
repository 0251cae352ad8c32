// Calendar arithmetic on the proleptic Gregorian calendar, without Date:
// Date.UTC maps years 0-99 to 1900-1999, and a log may hold any 4-digit year.

import { ascii, asciiInto } from './bytes.js';

export const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_DAYS[month - 1];
}

/** 1-12 for an English three-letter month name written as `Jan`…`Dec`, else 0. */
export function monthNumber(name: string): number {
  return MONTH_NAMES.indexOf(name) + 1;
}

/** Same as monthNumber, on three bytes of a buffer (no string is made). */
export function monthNumberAt(buf: Uint8Array, at: number): number {
  const a = buf[at], b = buf[at + 1], c = buf[at + 2];
  for (let i = 0; i < 12; i++) {
    const n = MONTH_NAMES[i];
    if (a === n.charCodeAt(0) && b === n.charCodeAt(1) && c === n.charCodeAt(2)) return i + 1;
  }
  return 0;
}

/** Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The civil date and time of a count of seconds since the epoch. */
export function civilFromSeconds(seconds: number): CivilTime {
  const days = Math.floor(seconds / 86400);
  let rest = seconds - days * 86400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  // H. Hinnant's civil_from_days
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day, hour, minute, second };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `00` … `99`. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => pad(i, 2));

/**
 * The last day and zone written, as text: a report writes two stamps for each of a
 * hundred thousand request ids, nearly all on a few days at one or two offsets.
 */
let lastDay = NaN;
let lastDayText = '';
let lastZoneOffset = NaN;
let lastZoneNegative = false;
let lastZoneText = '';

/** `2026-11-21T`: the date part of an ISO stamp. */
function dateText(t: CivilTime): string {
  return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T`;
}

function zoneText(offsetSeconds: number, negative: boolean): string {
  if (offsetSeconds !== lastZoneOffset || negative !== lastZoneNegative) {
    const abs = Math.abs(offsetSeconds);
    const sign = negative || offsetSeconds < 0 ? '-' : '+';
    lastZoneText = `${sign}${pad(Math.floor(abs / 3600), 2)}:${pad(Math.floor((abs % 3600) / 60), 2)}`;
    // Offsets before standard time (local mean time) can have seconds; keep them rather than lie.
    if (abs % 60 !== 0) lastZoneText += `:${pad(abs % 60, 2)}`;
    lastZoneOffset = offsetSeconds;
    lastZoneNegative = negative;
  }
  return lastZoneText;
}

/**
 * ISO 8601 for an instant shown at a UTC offset: `2026-11-21T10:00:07+01:00`.
 * `negative` keeps the sign of a written `-0000` (`-00:00`); never `Z`.
 */
export function isoAt(instant: number, offsetSeconds: number, negative: boolean): string {
  const local = instant + offsetSeconds;
  const days = Math.floor(local / 86400);
  const rest = local - days * 86400;
  if (!Number.isInteger(rest)) {
    const t = civilFromSeconds(local);
    return `${dateText(t)}${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${zoneText(offsetSeconds, negative)}`;
  }
  if (days !== lastDay) {
    lastDayText = dateText(civilFromSeconds(days * 86400));
    lastDay = days;
  }
  const hour = Math.floor(rest / 3600);
  const minute = Math.floor((rest - hour * 3600) / 60);
  const second = rest - hour * 3600 - minute * 60;
  return lastDayText + TWO_DIGITS[hour] + ':' + TWO_DIGITS[minute] + ':' + TWO_DIGITS[second] + zoneText(offsetSeconds, negative);
}

/**
 * isoInto's last day and zone, as the bytes of a stamp at midnight: copied whole by
 * TypedArray#set, then its time written over. A call of that C++ builtin costs about
 * as much whether it copies 6 bytes or 25: the day and the zone copied apart, a stamp
 * took 48-53 ns, so 31-44 (234,000 stamps, a report of *short*'s two a row).
 */
let stampDay = NaN;
let stampZoneOffset = NaN;
let stampZoneNegative = false;
let stampBytes: Uint8Array = new Uint8Array(0);
/** Where the time starts in stampBytes: after the day's text. */
let stampTimeAt = 0;

/** Instants and offsets (seconds) isoInto writes itself: years of four digits, zones of hours. */
const INTO_INSTANT = 1e11;
const INTO_OFFSET = 1e5;

/**
 * isoAt's text, written as ASCII into `buf` at `at`; returns where it ends. For a report
 * that writes bytes: a whole second is written without a string. An instant or offset
 * out of the ordinary (not whole, or far out) is written from isoAt's text.
 */
export function isoInto(buf: Uint8Array, at: number, instant: number, offsetSeconds: number, negative: boolean): number {
  const local = instant + offsetSeconds;
  const days = Math.floor(local / 86400);
  const rest = local - days * 86400;
  if (!Number.isInteger(rest) || !(Math.abs(local) < INTO_INSTANT) || !(Math.abs(offsetSeconds) < INTO_OFFSET)) {
    return asciiInto(buf, at, isoAt(instant, offsetSeconds, negative));
  }
  if (days !== stampDay || offsetSeconds !== stampZoneOffset || negative !== stampZoneNegative) {
    const day = dateText(civilFromSeconds(days * 86400));
    stampBytes = ascii(day + '00:00:00' + zoneText(offsetSeconds, negative));
    stampTimeAt = day.length;
    stampDay = days;
    stampZoneOffset = offsetSeconds;
    stampZoneNegative = negative;
  }
  buf.set(stampBytes, at);
  // A second of the day, 0 to 86,399: in 32-bit integers, where `/ 10 | 0` is a multiplication.
  const r = rest | 0;
  const hour = (r / 3600) | 0;
  const minute = ((r - hour * 3600) / 60) | 0;
  const second = r - hour * 3600 - minute * 60;
  const t = at + stampTimeAt;
  buf[t] = 48 + ((hour / 10) | 0);
  buf[t + 1] = 48 + (hour % 10);
  buf[t + 3] = 48 + ((minute / 10) | 0);
  buf[t + 4] = 48 + (minute % 10);
  buf[t + 6] = 48 + ((second / 10) | 0);
  buf[t + 7] = 48 + (second % 10);
  return at + stampBytes.length;
}

/**
 * Has isoInto write stamps of 32 days, then forgets its day. V8 keeps no feedback over a
 * function's first calls (isoInto's first 9 to 16), and a warming's rows can all be of one
 * day: the report's row writer, isoInto inlined, was compiled with no feedback for its
 * branch of a new day, and thrown away at the report's first new day.
 */
export function primeStamps(): void {
  const scratch = new Uint8Array(64);
  for (let day = 0; day < 32; day++) isoInto(scratch, 0, 1_700_000_000 + day * 86_400, 3600, false);
  stampDay = NaN;
}
