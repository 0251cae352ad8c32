// `--format text`: what an operator reads in a terminal. An overview, the request ids,
// the top signatures, and the violations grouped by rule.

import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { Summary } from '../analyse/analyser.js';
import type { Finding } from '../analyse/finding.js';
import { RULES } from '../analyse/rules.js';
import { escapeControls } from './escape.js';
import { wrap } from './wrap.js';

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
  const many = word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`;
  return `${n(count)} ${count === 1 ? word : many}`;
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

const BARS = '▁▂▃▄▅▆▇█';

/** One character per value, scaled to the largest; `·` for none. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (v === 0 ? '·' : BARS[Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 0.5))])).join('');
}

function bucketName(seconds: number): string {
  if (seconds % 604800 === 0) return `${seconds / 604800} week`;
  if (seconds % 86400 === 0) return `${seconds / 86400} day`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  return `${seconds / 60} min`;
}

function gapText(seconds: number | null): string {
  return seconds === null ? '-' : seconds < 60 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 6) / 10} min`;
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
  if (s.selection !== null) {
    const sel = s.selection;
    const parts: string[] = [];
    if (sel.since !== null) parts.push(`since ${new Date(sel.since * 1000).toISOString()}`);
    if (sel.until !== null) parts.push(`until ${new Date(sel.until * 1000).toISOString()}`);
    if (sel.requestIds !== null) parts.push(`request ids ${[...sel.requestIds].map(safe).join(', ')}`);
    if (sel.segments !== null) parts.push(`segments ${[...sel.segments].map(safe).join(', ')}`);
    rows.push(['selected', `${parts.join('; ')} (the rules saw every entry)`]);
  }
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
  const t = table(c, ['request id', 'session segments', 'entries', 'pairs', 'first', 'last', 'refreshes', 'gap median / longest'], [2, 3]);
  const rows = o.all ? s.requestIds : s.requestIds.slice(0, REQUEST_IDS_SHOWN);
  for (const r of rows) {
    const line = s.timeline?.refreshes[r.id];
    const cad = r.refreshCadence;
    t.push([
      escapeControls(r.id),
      r.sessionSegments.length === 0 ? c.dim('none') : r.sessionSegments.join(', '),
      n(r.entries),
      n(r.refreshPairs),
      r.first,
      r.last,
      line ? c.cyan(sparkline(line)) : '',
      `${gapText(cad.medianGapSeconds)} / ${gapText(cad.longestGapSeconds)}`,
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

function timelineChart(s: Summary, o: TextOptions): string[] {
  const t = s.timeline;
  if (t === null || t.buckets < 2) return [];
  const c = o.chalk;
  const kinds = Object.keys(t.entries);
  const width = Math.max(...kinds.map((k) => k.length));
  const out = ['', `${c.bold('Timeline')}  ${c.dim(`entries per ${bucketName(t.bucketSeconds)}, from ${t.start}`)}`];
  for (const kind of kinds) {
    const row = t.entries[kind];
    out.push(`  ${escapeControls(kind).padEnd(width)}  ${c.cyan(sparkline(row))}  ${c.dim(n(row.reduce((a, b) => a + b, 0)))}`);
  }
  return out;
}

function diagnosisSection(s: Summary, o: TextOptions): string[] {
  if (s.diagnosis.length === 0) return [];
  const c = o.chalk;
  const out = ['', c.bold('Diagnosis')];
  for (const d of s.diagnosis) {
    const ids = d.requestIds.length === 0 ? 'no request id' : d.requestIds.slice(0, 5).map(escapeControls).join(', ') + (d.requestIds.length > 5 ? `, … ${d.requestIds.length - 5} more` : '');
    out.push(`${c.yellow('●')} ${c.bold(d.title)}  ${c.dim(`${plural(d.entries, 'entry')}, ${d.first} to ${d.last}; ${ids}`)}`);
    out.push(`  ${wrap(d.meaning, 92, '  ')}`);
    if (d.breakdown) {
      for (const b of d.breakdown.slice(0, 5)) out.push(`    ${n(b.count).padStart(5)}  ${escapeControls(b.user)} from ${escapeControls(b.client)}`);
      if (d.breakdown.length > 5) out.push(c.dim(`    … ${d.breakdown.length - 5} more users and addresses`));
    }
    for (const step of d.fix) out.push(`  ${c.green('→')} ${wrap(step, 90, '    ')}`);
    out.push(c.dim(`  (webmail-log explain ${d.id})`));
  }
  return out;
}

function notesSection(s: Summary, o: TextOptions): string[] {
  if (s.notes.length === 0) return [];
  const c = o.chalk;
  const shown = o.all ? s.notes : s.notes.slice(0, VIOLATIONS_SHOWN);
  const out = ['', `${c.bold('Notes')}  ${c.dim('refresh gaps: no rule is broken, but the session stopped asking for a while')}`];
  for (const g of shown) out.push(`  ${escapeControls(g.requestId)}  ${g.message}  ${c.dim(`${g.from} to ${g.to}`)}`);
  if (shown.length < s.notesTotal) {
    const listed = s.notes.length > shown.length ? ' (--all lists them)' : '';
    out.push(c.dim(`  … ${n(s.notesTotal - shown.length)} more${s.notesTotal > s.notes.length ? `; the first ${n(s.notes.length)} are kept` : ''}${listed}`));
  }
  return out;
}

/** The whole text report; `findings` in stream order. */
export function renderText(s: Summary, findings: readonly Finding[], o: TextOptions): string {
  const lines = [
    ...overview(s, o.chalk),
    ...timelineChart(s, o),
    ...requestIdTable(s, o),
    ...signatureTable(s, o),
    ...diagnosisSection(s, o),
    ...notesSection(s, o),
    ...violationList(findings, o),
  ];
  return lines.join('\n') + '\n';
}
