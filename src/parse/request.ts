// What a logged request path says: its session segment and what the request was for
// (SPEC §1, "Request path"). The byte versions run on every entry; the string version
// serves reports and tests.

import { allDigits, ascii, matchAt } from './bytes.js';

/** A request's kind as a small number, for the hot path and for records: 0 when there is no request. */
export const RequestCode = { None: 0, Refresh: 1, Login: 2, Entry: 3, Other: 4 } as const;
export type RequestCode = (typeof RequestCode)[keyof typeof RequestCode];

const LOGIN = ascii('login=1');
const POST_LOGIN = ascii('post_login=');

/** The kind of the request whose method and path are at these byte ranges. */
export function requestCodeAt(buf: Uint8Array, methodStart: number, methodEnd: number, pathStart: number, pathEnd: number): RequestCode {
  if (isRefreshAt(buf, methodStart, methodEnd, pathStart, pathEnd)) return RequestCode.Refresh;
  let q = pathStart;
  while (q < pathEnd && buf[q] !== 0x3f /* ? */) q++;
  const method = methodEnd - methodStart;
  if (method === 3 && buf[methodStart] === 0x47 && buf[methodStart + 1] === 0x45 && buf[methodStart + 2] === 0x54 && q === pathEnd) {
    return RequestCode.Entry;
  }
  if (method === 4 && matchAt(buf, methodStart, methodEnd, POST) && q < pathEnd) {
    let login = false;
    let start = q + 1;
    for (let i = start; i <= pathEnd; i++) {
      if (i === pathEnd || buf[i] === 0x26) {
        if (i - start === LOGIN.length && matchAt(buf, start, i, LOGIN)) login = true;
        start = i + 1;
      }
    }
    if (login && postLoginValue(buf, pathStart, pathEnd) >= 0) return RequestCode.Login;
  }
  return RequestCode.Other;
}

/**
 * Where the value of a login's `post_login=` parameter starts in the path [pathStart,
 * pathEnd): the first such value that is one or more digits, or -1. It ends at the next
 * `&` or the path's end. A login's path has one (with `login=1`).
 */
export function postLoginValue(buf: Uint8Array, pathStart: number, pathEnd: number): number {
  let q = pathStart;
  while (q < pathEnd && buf[q] !== 0x3f /* ? */) q++;
  let start = q + 1;
  for (let i = start; i <= pathEnd; i++) {
    if (i === pathEnd || buf[i] === 0x26 /* & */) {
      const value = start + POST_LOGIN.length;
      if (i > value && matchAt(buf, start, i, POST_LOGIN) && allDigits(buf, value, i)) return value;
      start = i + 1;
    }
  }
  return -1;
}

function isLower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

/**
 * End of the session segment of the path [start, end), or -1: a path without one is no
 * error. The segment is the text between the path's first and second `/` (SPEC §1), and
 * it is one only as a lowercase prefix and exactly 10 digits (`cpsess0123456789`); so
 * `/cpsess0123456789?_task=mail`, with no second `/`, has none. It starts at segmentStart.
 */
export function segmentEnd(buf: Uint8Array, start: number, end: number): number {
  const first = segmentStart(buf, start, end) - 1;
  if (first < 0) return -1;
  let stop = first + 1;
  while (stop < end && buf[stop] !== 0x2f /* / */) stop++;
  if (stop === end) return -1;
  const digitsStart = stop - 10;
  if (digitsStart < first + 2) return -1;
  for (let i = first + 1; i < digitsStart; i++) if (!isLower(buf[i])) return -1;
  return allDigits(buf, digitsStart, stop) ? stop : -1;
}

/** Just after the path's first `/`, or 0 when it has none. */
export function segmentStart(buf: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (buf[i] === 0x2f) return i + 1;
  return 0;
}

const POST = ascii('POST');
const TASK_MAIL = ascii('_task=mail');
const ACTION_REFRESH = ascii('_action=refresh');
/** How the service writes almost every refresh: checked first, from the end. */
const USUAL_QUERY = ascii('?_task=mail&_action=refresh');

/** Bit 1: `_task=mail` is a parameter; bit 2: `_action=refresh` is. */
function refreshParams(buf: Uint8Array, from: number, end: number): number {
  let found = 0;
  let start = from;
  for (let i = from; i <= end; i++) {
    if (i === end || buf[i] === 0x26 /* & */) {
      const len = i - start;
      if (len === TASK_MAIL.length && matchAt(buf, start, i, TASK_MAIL)) found |= 1;
      else if (len === ACTION_REFRESH.length && matchAt(buf, start, i, ACTION_REFRESH)) found |= 2;
      start = i + 1;
    }
  }
  return found;
}

/** A mailbox refresh: POST, with `_task=mail` and `_action=refresh` in the query, in any order. */
export function isRefreshAt(buf: Uint8Array, methodStart: number, methodEnd: number, pathStart: number, pathEnd: number): boolean {
  if (methodEnd - methodStart !== 4 || !matchAt(buf, methodStart, methodEnd, POST)) return false;
  if (matchAt(buf, pathEnd - USUAL_QUERY.length, pathEnd, USUAL_QUERY) && pathEnd - USUAL_QUERY.length >= pathStart) {
    // Ends with the usual query; it is the query when no `?` comes before it.
    let q = pathStart;
    while (buf[q] !== 0x3f) q++;
    if (q === pathEnd - USUAL_QUERY.length) return true;
  }
  let q = pathStart;
  while (q < pathEnd && buf[q] !== 0x3f /* ? */) q++;
  if (q === pathEnd) return false;
  return refreshParams(buf, q + 1, pathEnd) === 3;
}
