// `--format text`: what an operator reads in a terminal. An overview, the request ids,
// the top signatures, and the violations grouped by rule.

import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { Summary } from '../analyse/analyser.js';
import type { Finding } from '../analyse/finding.js';
import { RULES } from '../analyse/rules.js';
import { escapeControls } from './escape.js';

export interface TextOptions {
  chalk: ChalkInstance;
  /** List every violation and request id, not only the first ones. */
  all: boolean;
}

/** Violations listed per rule unless `--all`. */
export const VIOLATIONS_SHOWN = 10;
const REQUEST_IDS_SHOWN = 20;
const SIGNATURES_SHOWN = 10;
const MESSAGE_WIDTH = 100;

function n(value: number): string {
  return value.toLocaleString('en-US');
}

function plural(count: number, word: string): string {
  return `${n(count)} ${word}${count === 1 ? '' : 's'}`;
}

function clip(text: string, width: number): string {
  return text.length > width ? text.slice(0, width - 1) + '…' : text;
}

function table(c: ChalkInstance, head: string[], alignRight: number[] = []): Table.Table {
  return new Table({
    head: head.map((h) => c.bold(h)),
    style: { head: [], border: [], compact: true },
    colAligns: head.map((_, i) => (alignRight.includes(i) ? 'right' : 'left')),
  });
}

function overview(s: Summary, c: ChalkInstance): string[] {
  const safe = escapeControls;
  const kinds = s.signatures.reduce((m, sig) => m.set(sig.kind, (m.get(sig.kind) ?? 0) + sig.count), new Map<string, number>());
  const rows: [string, string][] = [
    ['inputs', s.files.length === 0 ? 'none' : s.files.map(safe).join(', ')],
    ['lines', n(s.lines)],
    [
      'entries',
      `${n(s.entries)}: ${n(s.dbErrors)} DB errors, ${n(s.otherEntries)} other, ${n(s.malformedEntries)} malformed`,
    ],
  ];
  if (kinds.size > 0) {
    rows.push(['by kind', [...kinds].map(([k, v]) => `${safe(k)} ${n(v)}`).join(', ')]);
  }
  rows.push(['request ids', n(s.requestIds.length)]);
  rows.push([
    'refreshes',
    `${plural(s.refreshPairs, 'pair')} from ${n(s.refreshLookups.local)} local and ${n(s.refreshLookups.remote)} remote-sync lookups`,
  ]);
  if (s.span !== null) rows.push(['time span', `${s.span.first} to ${s.span.last}`]);
  if (s.truncatedEntries > 0) {
    const where = s.truncatedAt.map((t) => `${safe(t.file)}:${t.line}`).join(', ');
    const more = s.truncatedEntries > s.truncatedAt.length ? ', …' : '';
    rows.push(['long entries', `${n(s.truncatedEntries)} over 1 MiB, read by their first and last 512 KiB: ${where}${more}`]);
  }
  rows.push(['violations', violationCounts(s, c)]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return [c.bold('Overview'), ...rows.map(([k, v]) => `  ${c.dim(k.padEnd(width))}  ${v}`)];
}

function violationCounts(s: Summary, c: ChalkInstance): string {
  const { error, warning } = s.violations;
  if (error === 0 && warning === 0) return c.green('none');
  const e = plural(error, 'error');
  const w = plural(warning, 'warning');
  return `${error > 0 ? c.red(e) : e}, ${warning > 0 ? c.yellow(w) : w}`;
}

function requestIdTable(s: Summary, o: TextOptions): string[] {
  if (s.requestIds.length === 0) return [];
  const c = o.chalk;
  const t = table(c, ['request id', 'session segments', 'entries', 'pairs', 'first', 'last'], [2, 3]);
  const rows = o.all ? s.requestIds : s.requestIds.slice(0, REQUEST_IDS_SHOWN);
  for (const r of rows) {
    t.push([
      escapeControls(r.id),
      r.sessionSegments.length === 0 ? c.dim('none') : r.sessionSegments.join(', '),
      n(r.entries),
      n(r.refreshPairs),
      r.first,
      r.last,
    ]);
  }
  const out = ['', c.bold('Request ids'), t.toString()];
  if (rows.length < s.requestIds.length) out.push(c.dim(`  … ${n(s.requestIds.length - rows.length)} more (--all lists them)`));
  return out;
}

function signatureTable(s: Summary, o: TextOptions): string[] {
  if (s.signatures.length === 0) return [];
  const c = o.chalk;
  const t = table(c, ['count', 'kind', 'code', 'message'], [0]);
  const rows = o.all ? s.signatures : s.signatures.slice(0, SIGNATURES_SHOWN);
  for (const sig of rows) {
    t.push([
      n(sig.count),
      escapeControls(sig.kind),
      sig.code === null ? c.dim('-') : escapeControls(sig.code) || c.dim('(empty)'),
      sig.message === null ? c.dim('-') : clip(escapeControls(sig.message), MESSAGE_WIDTH) || c.dim('(empty)'),
    ]);
  }
  const heading = rows.length < s.signatures.length ? `Top signatures (${rows.length} of ${s.signatures.length})` : 'Signatures';
  return ['', c.bold(heading), t.toString()];
}

function violationList(findings: readonly Finding[], o: TextOptions): string[] {
  if (findings.length === 0) return [];
  const c = o.chalk;
  const out = ['', c.bold('Violations')];
  for (const rule of RULES) {
    const mine = findings.filter((f) => f.rule === rule.id);
    if (mine.length === 0) continue;
    const severity = mine[0].severity;
    const mark = severity === 'error' ? c.red('error  ') : c.yellow('warning');
    out.push(`${mark} ${c.bold(rule.id)} ${c.dim(`(${n(mine.length)})`)}  ${c.dim(rule.summary)}`);
    const shown = o.all ? mine : mine.slice(0, VIOLATIONS_SHOWN);
    for (const f of shown) out.push(`  ${c.cyan(`${escapeControls(f.file)}:${f.line}`)}  ${escapeControls(f.message)}`);
    if (shown.length < mine.length) out.push(c.dim(`  … ${n(mine.length - shown.length)} more (--all lists them)`));
  }
  return out;
}

/** The whole text report; `findings` in stream order. */
export function renderText(s: Summary, findings: readonly Finding[], o: TextOptions): string {
  const lines = [
    ...overview(s, o.chalk),
    ...requestIdTable(s, o),
    ...signatureTable(s, o),
    ...violationList(findings, o),
  ];
  return lines.join('\n') + '\n';
}
