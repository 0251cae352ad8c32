// JSON text that is safe to print. JSON.stringify escapes C0 controls but leaves DEL, C1
// controls and bidirectional overrides raw; those can only stand inside strings, where
// `\uXXXX` is the same value, so escaping them changes nothing for a parser and keeps a
// terminal that shows the report from acting on them.

const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** A string JSON.stringify writes as it is, between quotes: printable ASCII without `"` or `\\`. */
const PLAIN = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

export function jsonText(value: unknown, indent?: number): string {
  // Ids, segments and stamps: a report writes hundreds of thousands, nearly all plain.
  if (typeof value === 'string' && value.length < 256 && PLAIN.test(value)) return `"${value}"`;
  return JSON.stringify(value, null, indent).replace(RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
