// Which calendar collection a DB error is about (SPEC §2): the table from
// `no such table: <name>`, else from the query's first `FROM <name>`.

export const Side = { None: 0, Local: 1, Remote: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];


function isNameChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

const CLOSERS: Record<string, string> = { '`': '`', '"': '"', '[': ']' };

/** White space, `.`, `,`, `;`, `(`, `)`, a quote or a bracket: where an unquoted name ends. */
function endsUnquotedName(c: number): boolean {
  switch (c) {
    case 0x20: case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d:
    case 0x2e: case 0x2c: case 0x3b: case 0x28: case 0x29:
    case 0x22: case 0x27: case 0x60: case 0x5b: case 0x5d:
      return true;
    default:
      return false;
  }
}

/**
 * The last part of a possibly quoted, possibly schema-qualified table name at `at`
 * (`main."rc_calendars"` → `rc_calendars`), or null when no name stands there.
 */
export function tableNameAt(text: string, at: number): string | null {
  let i = at;
  let last: string | null = null;
  for (;;) {
    const closer = CLOSERS[text[i]];
    let part: string;
    if (closer !== undefined) {
      const end = text.indexOf(closer, i + 1);
      if (end < 0) return last;
      part = text.slice(i + 1, end);
      i = end + 1;
    } else {
      // An unquoted name runs to white space or punctuation (SPEC §2); whether all of it
      // makes a calendar table is sideOfTable's question (`calendars-old` does not).
      const start = i;
      while (i < text.length && !endsUnquotedName(text.charCodeAt(i))) i++;
      if (i === start) return last;
      part = text.slice(start, i);
    }
    last = part;
    if (text.charCodeAt(i) !== 0x2e /* . */) return last;
    i++;
  }
}

const FROM = /\bfrom\s+/gi;

/**
 * The table of the query's first `FROM` (a whole word, in any case, then white space), or
 * null: only the first counts, so `FROM (SELECT … FROM calendars)` names no table.
 */
export function tableAfterFrom(query: string): string | null {
  FROM.lastIndex = 0;
  return FROM.exec(query) === null ? null : tableNameAt(query, FROM.lastIndex);
}

/** Remote for a name ending in `caldav_calendars`, local for another ending in `calendars` (prefix: letters, digits, `_`). */
export function sideOfTable(name: string | null): Side {
  if (name === null || !name.endsWith('calendars')) return Side.None;
  for (let i = 0; i < name.length; i++) if (!isNameChar(name.charCodeAt(i))) return Side.None;
  return name.endsWith('caldav_calendars') ? Side.Remote : Side.Local;
}

const NO_SUCH_TABLE = 'no such table: ';

/** The table SQLite's message names (`no such table: <name>`, SPEC §2), or null. */
export function noSuchTable(message: string): string | null {
  const at = message.indexOf(NO_SUCH_TABLE);
  return at < 0 ? null : tableNameAt(message, at + NO_SUCH_TABLE.length);
}

/**
 * The side of the table SQLite's message names (SPEC §2: that name decides), or null when
 * the message names none.
 */
export function sideNamed(message: string): Side | null {
  const at = message.indexOf(NO_SUCH_TABLE);
  return at < 0 ? null : sideOfTable(tableNameAt(message, at + NO_SUCH_TABLE.length));
}
