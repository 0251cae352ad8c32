// JSON text that is safe to print. JSON.stringify escapes C0 controls but leaves DEL, C1
// controls and bidirectional overrides raw; those can only stand inside strings, where
// `\uXXXX` is the same value, so escaping them changes nothing for a parser and keeps a
// terminal that shows the report from acting on them.

const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
