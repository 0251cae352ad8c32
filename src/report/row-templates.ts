// A request-id row's words, and rows written from templates. Rows of one log are alike:
// the same keys, an id and a segment of the same lengths, numbers of a few digits, two
// stamps of 25 characters. A template is such a row with its variable parts left as
// placeholders, made once for each set of their lengths: a row is then one copy of its
// template (TypedArray#set, a C++ call of about 14 ns whether it copies 15 bytes or 360)
// and its variable bytes written into their places. Word by word, a row of *short* took
// a dozen such copies: about 460 ns a row, warm, reading it from the packed ids included;
// from its template, about 330.

import type { RawRow } from '../analyse/retired.js';
import { ascii } from '../parse/bytes.js';
import { isoInto } from '../parse/calendar.js';

/** The words of a row, between its variable parts, and of the list around the rows. */
export interface Words {
  open: Uint8Array;
  between: Uint8Array;
  close: Uint8Array;
  id: Uint8Array;
  firstSegment: Uint8Array;
  nextSegment: Uint8Array;
  lastSegment: Uint8Array;
  noSegments: Uint8Array;
  refreshPairs: Uint8Array;
  first: Uint8Array;
  last: Uint8Array;
  refreshes: Uint8Array;
  median: Uint8Array;
  longest: Uint8Array;
  end: Uint8Array;
}

export const INDENTED: Words = {
  open: ascii('[\n    '),
  between: ascii(',\n    '),
  close: ascii('\n  ]'),
  id: ascii('{\n      "id": "'),
  // The words after the id, into the segments: one copy, not two.
  firstSegment: ascii('",\n      "sessionSegments": [\n        "'),
  nextSegment: ascii('",\n        "'),
  lastSegment: ascii('"\n      ],\n      "entries": '),
  noSegments: ascii('",\n      "sessionSegments": [],\n      "entries": '),
  refreshPairs: ascii(',\n      "refreshPairs": '),
  first: ascii(',\n      "first": "'),
  last: ascii('",\n      "last": "'),
  refreshes: ascii('",\n      "refreshCadence": {\n        "refreshes": '),
  median: ascii(',\n        "medianGapSeconds": '),
  longest: ascii(',\n        "longestGapSeconds": '),
  end: ascii('\n      }\n    }'),
};

export const FLAT: Words = {
  open: ascii('['),
  between: ascii(','),
  close: ascii(']'),
  id: ascii('{"id":"'),
  firstSegment: ascii('","sessionSegments":["'),
  nextSegment: ascii('","'),
  lastSegment: ascii('"],"entries":'),
  noSegments: ascii('","sessionSegments":[],"entries":'),
  refreshPairs: ascii(',"refreshPairs":'),
  first: ascii(',"first":"'),
  last: ascii('","last":"'),
  refreshes: ascii('","refreshCadence":{"refreshes":'),
  median: ascii(',"medianGapSeconds":'),
  longest: ascii(',"longestGapSeconds":'),
  end: ascii('}}'),
};

/** A stamp as isoInto writes an ordinary one: `2026-11-01T01:00:00+01:00`. */
const STAMP = 25;
/** Digits a number may have in a template: more, and the row is written word by word. */
const MOST_DIGITS = 7;
const TOO_LARGE = 10 ** MOST_DIGITS;
/** Longest id or segment a template holds (6 bits of the key). */
const MOST_BYTES = 63;
/** Templates kept for each words: a log has a few hundred sets of lengths; a hostile one, any number. */
const TEMPLATES_KEPT = 4096;

/**
 * How a number stands in a row, as the word-by-word writer writes it (JSON's `null`,
 * digits of a whole number, `12.5` for a median halfway between two gaps): 0 `null`,
 * 1-7 that many digits, 9-15 that many and `.5`; -1 for any other number.
 */
export function numberForm(n: number | null): number {
  if (n === null) return 0;
  if (!(n >= 0 && n < TOO_LARGE)) return -1;
  const whole = Math.floor(n);
  if (n === whole) return digits(whole);
  return n - whole === 0.5 ? 8 + digits(whole) : -1;
}

/** Digits of a whole number 0 ≤ n < 2^31. */
export function digits(n: number): number {
  let d = 1;
  for (let m = n; m >= 10; m = (m / 10) | 0) d++;
  return d;
}

/** A row with placeholders: where its variable parts go, from the row's start. */
interface Template {
  /** `between` and the row: what every row but the first is written as. */
  joined: Uint8Array;
  /** The row alone (a subarray of joined). */
  row: Uint8Array;
  id: number;
  /** -1: the row lists no segment. */
  segment: number;
  /** Where each number's digits end (before a `.5`); -1 for a `null`. */
  entries: number;
  refreshPairs: number;
  refreshes: number;
  median: number;
  longest: number;
  first: number;
  last: number;
}

/** The templates of one words, by the lengths of a row's parts (see key). */
export class Templates {
  private readonly kept = new Map<number, Template>();

  constructor(private readonly w: Words) {}

  /** The template a row is written from, or null when it has none (it is written word by word). */
  of(r: RawRow): Template | null {
    if (r.segments > 1 || r.idLength > MOST_BYTES) return null;
    const segment = r.segments === 0 ? 0 : r.segmentLength[0] + 1;
    if (segment > MOST_BYTES + 1) return null;
    const entries = numberForm(r.entries);
    const pairs = numberForm(r.refreshPairs);
    const refreshes = numberForm(r.count);
    const median = numberForm(r.median);
    const longest = numberForm(r.longest < 0 ? null : r.longest);
    // A count of a row is never null nor a fraction.
    if (entries < 1 || entries > MOST_DIGITS || pairs < 1 || pairs > MOST_DIGITS || refreshes < 1 || refreshes > MOST_DIGITS || median < 0 || longest < 0) return null;
    // Under 2^30, a small integer: 6 + 7 bits of lengths, 3 × 3 of digits, 2 × 4 of forms.
    const key = ((((((r.idLength * 128 + segment) * 8 + entries) * 8 + pairs) * 8 + refreshes) * 16 + median) * 16) + longest;
    let t = this.kept.get(key);
    if (t === undefined) {
      if (this.kept.size >= TEMPLATES_KEPT) this.kept.clear();
      t = makeTemplate(this.w, r.idLength, segment - 1, entries, pairs, refreshes, median, longest);
      this.kept.set(key, t);
    }
    return t;
  }
}

/** Builds a template: the words, placeholders of the lengths given (a segment of -1: none). */
function makeTemplate(w: Words, idLength: number, segmentLength: number, entries: number, pairs: number, refreshes: number, median: number, longest: number): Template {
  const parts: Uint8Array[] = [];
  let at = 0;
  const put = (bytes: Uint8Array) => {
    parts.push(bytes);
    at += bytes.length;
  };
  const fill = (n: number) => {
    const from = at;
    put(new Uint8Array(n).fill(0x30));
    return from;
  };
  // A number's placeholder as its form writes it; where its digits end (-1: `null`).
  const number = (form: number) => {
    if (form === 0) {
      put(ascii('null'));
      return -1;
    }
    const end = fill(form & 7) + (form & 7);
    if (form > 8) put(ascii('.5'));
    return end;
  };
  put(w.between);
  const start = at;
  // Places from the row's start; a `null` has none.
  const place = (end: number) => (end < 0 ? -1 : end - start);
  put(w.id);
  const id = place(fill(idLength));
  let segment = -1;
  if (segmentLength < 0) {
    put(w.noSegments);
  } else {
    put(w.firstSegment);
    segment = place(fill(segmentLength));
    put(w.lastSegment);
  }
  const entriesEnd = place(number(entries));
  put(w.refreshPairs);
  const pairsEnd = place(number(pairs));
  put(w.first);
  const first = place(fill(STAMP));
  put(w.last);
  const last = place(fill(STAMP));
  put(w.refreshes);
  const refreshesEnd = place(number(refreshes));
  put(w.median);
  const medianEnd = place(number(median));
  put(w.longest);
  const longestEnd = place(number(longest));
  put(w.end);
  const joined = new Uint8Array(at);
  let k = 0;
  for (const p of parts) {
    joined.set(p, k);
    k += p.length;
  }
  return { joined, row: joined.subarray(start), id, segment, entries: entriesEnd, refreshPairs: pairsEnd, refreshes: refreshesEnd, median: medianEnd, longest: longestEnd, first, last };
}

/** The whole number 0 ≤ n < 2^31 in digits ending at `end`; in 32-bit integers, where `(m / 10) | 0` is a multiplication and Math.floor a division. */
export function digitsBefore(buf: Uint8Array, end: number, n: number): void {
  let m = n | 0;
  do {
    const q = (m / 10) | 0;
    buf[--end] = 48 + m - q * 10;
    m = q;
  } while (m > 0);
}

/**
 * Writes row `r` from its template `t` at `at` of `buf` (`between` first unless it is the
 * list's first row); returns where it ends, or -1 when a stamp of it is not an ordinary
 * one (the bytes from `at` on are then to be written over). The room is the caller's.
 */
export function writeFromTemplate(buf: Uint8Array, at: number, r: RawRow, t: Template, first: boolean): number {
  // One copy for either: a branch per case left the first row's copy without type
  // feedback (V8 collects none on a function's first calls), and the report's first row
  // threw the compiled writer away.
  const whole = first ? t.row : t.joined;
  buf.set(whole, at);
  at += whole.length - t.row.length;
  const block = r.block;
  for (let i = 0, to = at + t.id, from = r.idAt; i < r.idLength; i++) buf[to + i] = block[from + i];
  if (t.segment >= 0) for (let i = 0, to = at + t.segment, from = r.segmentAt[0], n = r.segmentLength[0]; i < n; i++) buf[to + i] = block[from + i];
  digitsBefore(buf, at + t.entries, r.entries);
  digitsBefore(buf, at + t.refreshPairs, r.refreshPairs);
  digitsBefore(buf, at + t.refreshes, r.count);
  if (t.median >= 0) digitsBefore(buf, at + t.median, Math.floor(r.median as number));
  if (t.longest >= 0) digitsBefore(buf, at + t.longest, Math.floor(r.longest));
  if (isoInto(buf, at + t.first, r.firstInstant, r.firstOffset, r.firstNegative) !== at + t.first + STAMP) return -1;
  if (isoInto(buf, at + t.last, r.lastInstant, r.lastOffset, r.lastNegative) !== at + t.last + STAMP) return -1;
  return at + t.row.length;
}
