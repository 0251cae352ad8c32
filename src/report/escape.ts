// Text from the log is attacker-controlled (a login name, a URL): before it reaches a
// terminal, control characters and bidirectional overrides are shown escaped, never raw.

const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x0a) return '\\n';
  if (code === 0x0d) return '\\r';
  if (code === 0x09) return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control character written as an escape (`\x1b`, `\n`, `\u202e`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}
