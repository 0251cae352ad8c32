// JSON text that is safe to print. JSON.stringify escapes C0 controls but leaves DEL, C1
// controls and bidirectional overrides raw; those can only stand inside strings, where
// `\uXXXX` is the same value, so escaping them changes nothing for a parser and keeps a
// terminal that shows the report from acting on them.

const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** 1 for each ASCII character JSON does not hold as it is: controls, `"`, `\\` and DEL (escaped here). */
export const NOT_PLAIN = new Uint8Array(128).map((_, c) => (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f ? 1 : 0));

/**
 * Whether JSON.stringify writes `s` as it is, between quotes: printable ASCII without `"`
 * or `\\`. A loop, not a regular expression: ids and segments are a few characters, and
 * a report checks hundreds of thousands of them.
 */
export function isPlain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7e || NOT_PLAIN[c] === 1) return false;
  }
  return true;
}

export function jsonText(value: unknown, indent?: number): string {
  // Ids, segments and stamps: a report writes hundreds of thousands, nearly all plain.
  if (typeof value === 'string' && value.length < 256 && isPlain(value)) return '"' + value + '"';
  return JSON.stringify(value, null, indent).replace(RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
