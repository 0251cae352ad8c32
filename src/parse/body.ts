// The text of an entry after its header and request id: its kind, the request at its
// end, and the DB Error shape. The DB Error tail is read from the end, because the query
// before it may hold parentheses, ` in ` and newlines (SPEC §1).

const SQL_QUERY = '(SQL Query:';
const ON_LINE = ' on line ';
const IN = ') in ';

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `DB`, `IMAP`, `SMTP`, … from `<KIND> Error: `; `PHP` for PHP's own lines; else `text`. */
export function entryKind(text: string): string {
  if (text.startsWith('DB Error: ')) return 'DB';
  let i = 0;
  while (i < text.length && isUpper(text.charCodeAt(i))) i++;
  if (i > 0 && text.startsWith(' Error: ', i)) return text.slice(0, i);
  // PHP's own: `PHP Fatal error:  …`, `PHP Warning:  …`, `PHP Parse error: …`.
  if (text.startsWith('PHP ') && /^PHP [A-Za-z]+(?: [A-Za-z]+)*:/.test(text.slice(0, 80))) return 'PHP';
  return 'text';
}

/** The `(<METHOD> <path>)` an entry ends with. */
export interface Request {
  method: string;
  path: string;
  /** Index of its `(` in the text. */
  at: number;
}

/**
 * The request at the very end of an entry's text (trailing white space ignored), or null.
 * The path is one run of non-space characters: the service writes the URI it was sent.
 */
export function requestAtEnd(text: string): Request | null {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  if (end < 1 || text.charCodeAt(end - 1) !== 0x29 /* ) */) return null;
  const pathEnd = end - 1;
  let pathStart = pathEnd;
  while (pathStart > 0 && !isSpace(text.charCodeAt(pathStart - 1))) pathStart--;
  if (pathStart === pathEnd || pathStart < 1 || text.charCodeAt(pathStart - 1) !== 0x20) return null;
  const methodEnd = pathStart - 1;
  let methodStart = methodEnd;
  while (methodStart > 0 && isUpper(text.charCodeAt(methodStart - 1))) methodStart--;
  if (methodStart === methodEnd || methodStart < 1 || text.charCodeAt(methodStart - 1) !== 0x28 /* ( */) return null;
  return { method: text.slice(methodStart, methodEnd), path: text.slice(pathStart, pathEnd), at: methodStart - 1 };
}

/** A DB Error body taken apart: `DB Error: [<code>] <message> (SQL Query: <query>) in <file> on line <n> (<request>)`. */
export interface DbError {
  code: string;
  message: string;
  query: string;
  sourceFile: string;
  sourceLine: number;
  request: Request;
}

/** The parts of a text that starts with `DB Error: `, or null when it lacks the shape. */
export function parseDbError(text: string): DbError | null {
  let i = 'DB Error: '.length;
  if (text.charCodeAt(i) !== 0x5b /* [ */) return null;
  const codeEnd = text.indexOf(']', i + 1);
  if (codeEnd < 0 || text.charCodeAt(codeEnd + 1) !== 0x20) return null;
  const code = text.slice(i + 1, codeEnd);
  i = codeEnd + 2;
  // An empty message leaves two spaces before `(SQL Query:`; one is accepted too.
  let messageEnd: number;
  let queryStart: number;
  if (text.startsWith(SQL_QUERY, i)) {
    messageEnd = i;
    queryStart = i + SQL_QUERY.length;
  } else {
    messageEnd = text.indexOf(' ' + SQL_QUERY, i);
    if (messageEnd < 0) return null;
    queryStart = messageEnd + 1 + SQL_QUERY.length;
  }
  if (text.charCodeAt(queryStart) === 0x20) queryStart++;

  const request = requestAtEnd(text);
  if (request === null || text.charCodeAt(request.at - 1) !== 0x20) return null;
  const digitsEnd = request.at - 1;
  let digitsStart = digitsEnd;
  while (digitsStart > 0 && isDigit(text.charCodeAt(digitsStart - 1))) digitsStart--;
  if (digitsStart === digitsEnd || !text.startsWith(ON_LINE, digitsStart - ON_LINE.length)) return null;
  const fileEnd = digitsStart - ON_LINE.length;
  // The source file is not empty, so its `) in ` ends at least one character before fileEnd.
  const queryEnd = fileEnd - IN.length - 1 >= 0 ? text.lastIndexOf(IN, fileEnd - IN.length - 1) : -1;
  if (queryEnd < queryStart) return null;
  return {
    code,
    message: text.slice(i, messageEnd),
    query: text.slice(queryStart, queryEnd),
    sourceFile: text.slice(queryEnd + IN.length, fileEnd),
    sourceLine: Number(text.slice(digitsStart, digitsEnd)),
    request,
  };
}
