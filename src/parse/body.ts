// The text of an entry after its header and request id, read from its bytes: its kind,
// the request at its end, and the DB Error shape. The DB Error tail is read from the
// end, because the query before it may hold parentheses, ` in ` and newlines (SPEC §1).
// Positions are written into a reused Parts object: nothing is allocated per entry.

import { ascii, isDigit, isSpace, isUpper, matchAt } from './bytes.js';

/** A body starting so is a DB Error, well-shaped or not (SPEC §1: `DB Error:x` is a malformed one). */
const DB_ERROR = ascii('DB Error:');
const ERROR = ascii(' Error: ');
const PHP = ascii('PHP ');
// The space after the colon is part of the shape: `(SQL Query:q)` is malformed.
const SQL_QUERY = ascii('(SQL Query: ');
const SPACE_SQL_QUERY = ascii(' (SQL Query: ');
const ON_LINE = ascii(' on line ');
const IN = ascii(') in ');

/** Byte positions of an entry's parts; -1 where a part is missing. */
export interface Parts {
  methodStart: number;
  methodEnd: number;
  pathStart: number;
  pathEnd: number;
  codeStart: number;
  codeEnd: number;
  messageStart: number;
  messageEnd: number;
  queryStart: number;
  queryEnd: number;
  sourceStart: number;
  sourceEnd: number;
  sourceLine: number;
}

export function newParts(): Parts {
  return {
    methodStart: -1,
    methodEnd: -1,
    pathStart: -1,
    pathEnd: -1,
    codeStart: -1,
    codeEnd: -1,
    messageStart: -1,
    messageEnd: -1,
    queryStart: -1,
    queryEnd: -1,
    sourceStart: -1,
    sourceEnd: -1,
    sourceLine: -1,
  };
}

/**
 * Kind names made once each. A log has a handful; a hostile one may have any number of
 * `<CAPITALS> Error: ` words, so the table is bounded.
 */
export class KindNames {
  private readonly names = new Map<string, string>();

  get(buf: Buffer, start: number, end: number): string {
    const kind = buf.toString('latin1', start, end);
    let interned = this.names.get(kind);
    if (interned === undefined) {
      if (this.names.size >= 256) this.names.clear();
      this.names.set(kind, (interned = kind));
    }
    return interned;
  }
}

/** `DB`, `IMAP`, `SMTP`, … from `<KIND> Error: `; `PHP` for PHP's own lines; else `text`. */
export function kindAt(buf: Buffer, at: number, end: number, names: KindNames): string {
  if (matchAt(buf, at, end, DB_ERROR)) return 'DB';
  let i = at;
  while (i < end && isUpper(buf[i])) i++;
  if (i > at && matchAt(buf, i, end, ERROR)) return names.get(buf, at, i);
  // PHP's own: `PHP Fatal error:  …`, `PHP Warning:  …` — words of letters, then a colon,
  // within the first 80 bytes.
  if (matchAt(buf, at, end, PHP)) {
    const limit = Math.min(end, at + 80);
    let j = at + PHP.length;
    for (;;) {
      const wordStart = j;
      while (j < limit && ((buf[j] | 0x20) >= 0x61 && (buf[j] | 0x20) <= 0x7a)) j++;
      if (j === wordStart || j >= limit) break;
      if (buf[j] === 0x3a) return 'PHP';
      if (buf[j] !== 0x20) break;
      j++;
    }
  }
  return 'text';
}

/**
 * The `(<METHOD> <path>)` at the very end of [from, to) (trailing white space ignored):
 * the index of its `(`, with method and path written into `p`; or -1. The path is one
 * run of non-space characters: the service writes the URI it was sent.
 */
export function scanRequest(buf: Uint8Array, from: number, to: number, p: Parts): number {
  let end = to;
  while (end > from && isSpace(buf[end - 1])) end--;
  if (end <= from || buf[end - 1] !== 0x29 /* ) */) return -1;
  const pathEnd = end - 1;
  let pathStart = pathEnd;
  while (pathStart > from && !isSpace(buf[pathStart - 1])) pathStart--;
  if (pathStart === pathEnd || pathStart <= from || buf[pathStart - 1] !== 0x20) return -1;
  const methodEnd = pathStart - 1;
  let methodStart = methodEnd;
  while (methodStart > from && isUpper(buf[methodStart - 1])) methodStart--;
  if (methodStart === methodEnd || methodStart <= from || buf[methodStart - 1] !== 0x28 /* ( */) return -1;
  p.methodStart = methodStart;
  p.methodEnd = methodEnd;
  p.pathStart = pathStart;
  p.pathEnd = pathEnd;
  return methodStart - 1;
}

/** The head of a DB Error: code, message, and where the query starts. */
export function scanDbHead(buf: Uint8Array, at: number, end: number, p: Parts): boolean {
  let i = at + DB_ERROR.length;
  if (i + 1 >= end || buf[i] !== 0x20 || buf[i + 1] !== 0x5b /* [ */) return false;
  i++;
  let codeEnd = i + 1;
  while (codeEnd < end && buf[codeEnd] !== 0x5d /* ] */) codeEnd++;
  if (codeEnd + 1 >= end || buf[codeEnd + 1] !== 0x20) return false;
  const codeStart = i + 1;
  i = codeEnd + 2;
  // An empty message leaves two spaces before `(SQL Query:`; one is accepted too.
  let messageEnd: number;
  let queryStart: number;
  if (matchAt(buf, i, end, SQL_QUERY)) {
    messageEnd = i;
    queryStart = i + SQL_QUERY.length;
  } else {
    // The first ` (SQL Query: `, found by its `(`: a message has few of those and many spaces.
    messageEnd = -1;
    for (let j = i + 1, last = end - SQL_QUERY.length; j <= last; j++) {
      if (buf[j] === 0x28 /* ( */ && buf[j - 1] === 0x20 && matchAt(buf, j, end, SQL_QUERY)) {
        messageEnd = j - 1;
        break;
      }
    }
    if (messageEnd < 0) return false;
    queryStart = messageEnd + SPACE_SQL_QUERY.length;
  }
  p.codeStart = codeStart;
  p.codeEnd = codeEnd;
  p.messageStart = codeEnd + 2;
  p.messageEnd = messageEnd;
  p.queryStart = queryStart;
  return true;
}

/**
 * The tail of a DB Error, read from the end after scanDbHead: `) in <file> on line <n>
 * (<request>)`. Its `) in ` is the last one before ` on line `, so the query may hold any.
 */
export function scanDbTail(buf: Uint8Array, at: number, end: number, p: Parts): boolean {
  const open = scanRequest(buf, at, end, p);
  if (open < 0 || buf[open - 1] !== 0x20) return false;
  const digitsEnd = open - 1;
  let digitsStart = digitsEnd;
  while (digitsStart > at && isDigit(buf[digitsStart - 1])) digitsStart--;
  if (digitsStart === digitsEnd || !matchAt(buf, digitsStart - ON_LINE.length, digitsEnd, ON_LINE)) return false;
  const fileEnd = digitsStart - ON_LINE.length;
  // The source file, like the rest of the tail, is on the entry's last line (SPEC §1): its
  // `) in ` is the last one before fileEnd that starts on that line, searched for from the
  // end, back to the line's start or the query's (one pass: not out to the line's start
  // first). The source file is not empty, so its `) in ` starts before fileEnd - 5.
  let queryEnd = -1;
  for (let i = fileEnd - 1; i >= p.queryStart && buf[i] !== 0x0a; i--) {
    if (buf[i] === 0x29 /* ) */ && i < fileEnd - IN.length && matchAt(buf, i, fileEnd, IN)) {
      queryEnd = i;
      break;
    }
  }
  if (queryEnd < p.queryStart) return false;
  let line = 0;
  for (let d = digitsStart; d < digitsEnd; d++) line = line * 10 + buf[d] - 0x30;
  p.queryEnd = queryEnd;
  p.sourceStart = queryEnd + IN.length;
  p.sourceEnd = fileEnd;
  p.sourceLine = line;
  return true;
}
