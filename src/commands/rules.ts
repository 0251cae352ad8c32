// `webmail-log rules`: the rules table, id, default severity and meaning.

import { RULES } from '../analyse/rules.js';
import { termList } from '../report/wrap.js';

/** The table, its meanings wrapped to `width`. */
export function rulesText(width: number): string {
  const idWidth = Math.max(...RULES.map((r) => r.id.length));
  return termList(RULES.map((r) => [`${r.id.padEnd(idWidth)}  ${r.severity}`, r.summary]), width, '') + '\n';
}
