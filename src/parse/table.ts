// Which calendar collection a DB error is about (SPEC §2): the table from
// `no such table: <name>`, else from the query's first `FROM <name>`.

export const Side = { None: 0, Local: 1, Remote: 2 } as const;
export type Side = (typeof Side)[keyof typeof Side];

const NO_SUCH_TABLE = 'no such table: ';

function isNameChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

const CLOSERS: Record<string, string> = { '`': '`', '"': '"', '[': ']' };

/**
 * The last part of a possibly quoted, possibly schema-qualified table name at `at`
 * (`main."rc_calendars"` → `rc_calendars`), or null when no name stands there.
 * `unclosed` collects the quote characters with no closer left in the text: searching
 * for them again could only fail, and would make many `FROM "` quadratic.
 */
export function tableNameAt(text: string, at: number, unclosed: Set<string> = new Set()): string | null {
  let i = at;
  let last: string | null = null;
  for (;;) {
    const closer = CLOSERS[text[i]];
    let part: string;
    if (closer !== undefined) {
      if (unclosed.has(closer)) return last;
      const end = text.indexOf(closer, i + 1);
      if (end < 0) {
        unclosed.add(closer);
        return last;
      }
      part = text.slice(i + 1, end);
      i = end + 1;
    } else {
      const start = i;
      while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
      if (i === start) return last;
      part = text.slice(start, i);
    }
    last = part;
    if (text.charCodeAt(i) !== 0x2e /* . */) return last;
    i++;
  }
}

const FROM = /\bfrom\s+/gi;

/** The table of the query's first `FROM <name>` (keywords in any case), or null. */
export function tableAfterFrom(query: string): string | null {
  FROM.lastIndex = 0;
  const unclosed = new Set<string>();
  for (let m = FROM.exec(query); m !== null; m = FROM.exec(query)) {
    const name = tableNameAt(query, FROM.lastIndex, unclosed);
    if (name !== null) return name;
  }
  return null;
}

/** Remote for a name ending in `caldav_calendars`, local for another ending in `calendars` (prefix: letters, digits, `_`). */
export function sideOfTable(name: string | null): Side {
  if (name === null || !name.endsWith('calendars')) return Side.None;
  for (let i = 0; i < name.length; i++) if (!isNameChar(name.charCodeAt(i))) return Side.None;
  return name.endsWith('caldav_calendars') ? Side.Remote : Side.Local;
}

/** The side of a DB error's lookup from its message and query. */
export function lookupSide(message: string, query: string): Side {
  const at = message.indexOf(NO_SUCH_TABLE);
  return sideOfTable(at >= 0 ? tableNameAt(message, at + NO_SUCH_TABLE.length) : tableAfterFrom(query));
}
