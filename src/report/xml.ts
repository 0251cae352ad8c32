// Text for XML 1.0, whatever the log held: characters XML forbids (most C0 controls,
// U+FFFE, U+FFFF, lone surrogates) can be neither written nor escaped there, so they are
// shown as visible escapes first; then markup characters become entities.

import { escapeControls } from './escape.js';

const FORBIDDEN = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlEscape(text: string): string {
  return escapeControls(text)
    .replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
