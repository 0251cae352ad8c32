// `webmail-log explain <topic>`: the long description of a rule or of a diagnosis, what to
// do about it, and a log excerpt that shows it.

import { BACKEND_NAMES, KNOWLEDGE, type Knowledge } from '../analyse/knowledge.js';
import { RULES, type Rule } from '../analyse/rules.js';
import { termList, wrap } from '../report/wrap.js';


function ruleText(r: Rule, width: number): string {
  const h = r;
  return [
    `${r.id}  (rule, default severity ${r.severity})`,
    '',
    wrap(`Broken when ${r.summary}.`, width, ''),
    '',
    wrap(h.description, width, ''),
    '',
    'What to do:',
    wrap(h.help, width, '  ', '  '),
    '',
    'Example:',
    ...h.example.map((l) => `  ${l}`),
    '',
  ].join('\n');
}

function knowledgeText(k: Knowledge, width: number): string {
  return [
    `${k.id}  (diagnosis)`,
    k.title,
    '',
    wrap(k.meaning, width, ''),
    '',
    'What to do:',
    ...k.fix.map((f) => `  → ${wrap(f.backend ? `${BACKEND_NAMES[f.backend]}: ${f.text}` : f.text, width, '    ', '    ').trimStart()}`),
    '',
    k.example.length > 1 ? 'Examples:' : 'Example:',
    ...k.example.flatMap((l) => l.split('\n').map((part) => `  ${part}`)),
    '',
  ].join('\n');
}

/** Every topic: rule ids, then diagnosis ids. */
export function topics(): string[] {
  return [...RULES.map((r) => r.id), ...KNOWLEDGE.map((k) => k.id)];
}

/** The topics whose id, title or example holds `text` (any case). */
function search(text: string): string[] {
  const t = text.toLowerCase();
  const hits: string[] = [];
  for (const r of RULES) if (r.id.includes(t) || r.summary.toLowerCase().includes(t)) hits.push(r.id);
  for (const k of KNOWLEDGE) {
    if (k.id.includes(t) || k.title.toLowerCase().includes(t) || k.example.some((e) => e.toLowerCase().includes(t))) hits.push(k.id);
  }
  return hits;
}

/**
 * The explanation of a rule id, a diagnosis id, or the first topic whose text holds the
 * words given (`explain "database is locked"`); null when nothing matches.
 */
export function explain(topic: string, width = 100): string | null {
  const rule = RULES.find((r) => r.id === topic);
  if (rule) return ruleText(rule, width);
  const known = KNOWLEDGE.find((k) => k.id === topic);
  if (known) return knowledgeText(known, width);
  const hits = search(topic.trim());
  if (hits.length === 0) return null;
  const first = explain(hits[0], width) as string;
  return hits.length > 1 ? `${first}\nSee also: ${hits.slice(1).join(', ')}\n` : first;
}

export function topicList(width: number): string {
  // Both lists' meanings in one column: the terms padded to the longest topic.
  const pad = Math.max(...topics().map((t) => t.length));
  const list = (rows: [string, string][]) => termList(rows.map(([t, m]) => [t.padEnd(pad), m]), width);
  return ['Rules:', list(RULES.map((r) => [r.id, r.summary])), 'Diagnoses:', list(KNOWLEDGE.map((k) => [k.id, k.title])), ''].join('\n');
}
