// `webmail-log rules`: the rules table, id, default severity and meaning.

import { RULES } from '../analyse/rules.js';

export function rulesText(): string {
  const width = Math.max(...RULES.map((r) => r.id.length));
  return RULES.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.summary}`).join('\n') + '\n';
}
