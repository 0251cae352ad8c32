// One entry, read from its bytes: the header's stamp, the request id, the kind, and for
// DB errors the parts the rules need. Every field a rule or an aggregate reads is here.

import { bodyStart, readStamp, requestIdClose, stampProblem, type Stamp } from './header.js';
import { entryKind, parseDbError, requestAtEnd, type Request } from './body.js';
import { isRefresh, sessionSegment } from './request.js';
import { lookupSide, Side } from './table.js';

export interface Entry {
  /** Place of its file in the stream (0-based). */
  fileIndex: number;
  /** 1-based line of its header within its file. */
  line: number;
  /** Null when the header's values are invalid. */
  stamp: Stamp | null;
  /** Why the entry is malformed (SPEC §3 `malformed`), or null for a well-formed one. */
  problem: string | null;
  requestId: string | null;
  kind: string;
  /** DB errors only: the text between the brackets, and the message. */
  code: string | null;
  message: string | null;
  request: Request | null;
  segment: string | null;
  /** Local or remote for a refresh lookup, else None. */
  side: Side;
}

const DB_SHAPE = 'DB Error without the shape "[code] message (SQL Query: query) in file on line N (METHOD path)"';

// Most entries of a log share a handful of ids: reuse the string of the last one.
let lastIdBytes = Buffer.alloc(0);
let lastId = '';

function readRequestId(buf: Buffer, start: number, end: number): string {
  const len = end - start;
  if (len === lastIdBytes.length && buf.compare(lastIdBytes, 0, len, start, end) === 0) return lastId;
  lastIdBytes = Buffer.from(buf.subarray(start, end));
  lastId = buf.toString('utf8', start, end);
  return lastId;
}

/**
 * Reads the entry held in bytes [start, end) of buf; `close` is its header's `]` and
 * `firstLineEnd` the end of its first line (without CR).
 */
export function readEntry(
  buf: Buffer,
  start: number,
  end: number,
  close: number,
  firstLineEnd: number,
  fileIndex: number,
  line: number,
): Entry {
  const stamp = readStamp(buf, start, close);
  let at = bodyStart(buf, close, firstLineEnd);
  const idClose = requestIdClose(buf, at, firstLineEnd);
  let requestId: string | null = null;
  if (idClose >= 0) {
    requestId = readRequestId(buf, at + 1, idClose);
    at = idClose + 2;
  }
  let text = buf.toString('utf8', at, Math.max(at, end));
  if (text.includes('\r')) text = text.replace(/\r\n/g, '\n');
  const kind = entryKind(text);
  const entry: Entry = {
    fileIndex,
    line,
    stamp,
    problem: stamp === null ? `invalid header: ${stampProblem(buf, start, close)}` : null,
    requestId,
    kind,
    code: null,
    message: null,
    request: null,
    segment: null,
    side: Side.None,
  };
  if (kind === 'DB') {
    const db = parseDbError(text);
    if (db === null) {
      entry.problem ??= DB_SHAPE;
      return entry;
    }
    entry.code = db.code;
    entry.message = db.message;
    entry.request = db.request;
    if (isRefresh(db.request.method, db.request.path)) entry.side = lookupSide(db.message, db.query);
  } else {
    entry.request = requestAtEnd(text);
  }
  if (entry.request !== null) entry.segment = sessionSegment(entry.request.path);
  return entry;
}
