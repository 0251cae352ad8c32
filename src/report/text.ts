// `--format text`: what an operator reads in a terminal. An overview, the request ids,
// the top signatures, the diagnosis and the violations grouped by rule, fitted to the
// terminal's width; on a live stream, one line per violation as it is decided.

import type { ChalkInstance } from 'chalk';
import type { Summary } from '../analyse/analyser.js';
import { ALPHABETS } from '../analyse/alphabet.js';
import { boundText } from '../analyse/selection.js';
import type { Violation } from '../analyse/violation.js';
import { RULES } from '../analyse/rules.js';
import { fitTable, type Cell } from './columns.js';
import { escapeControls } from './escape.js';
import type { Reporter, ReportSettings } from './reporter.js';
import { wrap } from './wrap.js';
import { count as n } from './count.js';

/** What the text report reads of the settings. */
export type TextOptions = Pick<ReportSettings, 'chalk' | 'all' | 'width' | 'severities' | 'requestIdAlphabet' | 'host'>;

/** Violations listed per rule unless `--all`. */
export const VIOLATIONS_SHOWN = 10;
const REQUEST_IDS_SHOWN = 20;
const SIGNATURES_SHOWN = 10;

function plural(count: number, word: string): string {
  const many = word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`;
  return `${n(count)} ${count === 1 ? word : many}`;
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

/** `file:line  severity  rule  message`: a violation on a live stream. */
export function liveLine(f: Violation, c: ChalkInstance): string {
  const severity = f.severity === 'error' ? c.red('error  ') : c.yellow('warning');
  return `${c.cyan(`${escapeControls(f.file)}:${f.line}`)}  ${severity}  ${c.bold(f.rule)}  ${escapeControls(f.message)}\n`;
}

function overview(s: Summary, o: TextOptions): string[] {
  const c = o.chalk;
  const safe = escapeControls;
  const kinds = s.signatures.reduce((m, sig) => m.set(sig.kind, (m.get(sig.kind) ?? 0) + sig.count), new Map<string, number>());
  const rows: [string, string][] = [
    ['host', safe(o.host)],
    ['inputs', s.files.length === 0 ? 'none' : s.files.map(safe).join(', ')],
    ['lines', n(s.lines)],
    ['entries', `${n(s.entries)}: ${n(s.dbErrors)} DB errors, ${n(s.otherEntries)} other, ${n(s.malformedEntries)} malformed`],
  ];
  if (kinds.size > 0) rows.push(['by kind', [...kinds].map(([k, v]) => `${safe(k)} ${n(v)}`).join(', ')]);
  rows.push(['request ids', n(s.requestIds.length)]);
  rows.push(['refreshes', `${plural(s.refreshPairs, 'pair')} from ${n(s.refreshLookups.local)} local and ${n(s.refreshLookups.remote)} remote-sync lookups`]);
  if (s.span !== null) rows.push(['time span', `${s.span.first} to ${s.span.last}`]);
  if (s.selection !== null) {
    const sel = s.selection;
    const parts: string[] = [];
    const like = s.span?.first ?? null;
    if (sel.since !== null) parts.push(`since ${boundText(sel.since, like)}`);
    if (sel.until !== null) parts.push(`until ${boundText(sel.until, like)}`);
    if (sel.requestIds !== null) parts.push(`request ids ${[...sel.requestIds].map(safe).join(', ')}`);
    if (sel.segments !== null) parts.push(`segments ${[...sel.segments].map(safe).join(', ')}`);
    rows.push(['selected', `${parts.join('; ')} (the rules saw every entry)`]);
  }
  if (s.truncatedEntries > 0) {
    const where = s.truncatedAt.map((t) => `${safe(t.file)}:${t.line}`).join(', ');
    const more = s.truncatedEntries > s.truncatedAt.length ? ', …' : '';
    rows.push(['long entries', `${n(s.truncatedEntries)} over 1 MiB, read by their first and last 512 KiB: ${where}${more}`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length), 'violations'.length);
  const indent = ' '.repeat(width + 4);
  const out = [c.bold('Overview')];
  for (const [k, v] of rows) out.push(`  ${c.dim(k.padEnd(width))}  ${wrap(v, o.width, indent, ' '.repeat(width + 4)).slice(width + 4)}`);
  out.push(`  ${c.dim('violations'.padEnd(width))}  ${violationCounts(s, c)}`);
  return out;
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
  const rows = o.all ? s.requestIds : s.requestIds.slice(0, REQUEST_IDS_SHOWN);
  const dim = (t: string) => c.dim(t);
  const cyan = (t: string) => c.cyan(t);
  const cells: Cell[][] = rows.map((r) => {
    const line = s.timeline?.refreshes[r.id];
    const cad = r.refreshCadence;
    return [
      { text: escapeControls(r.id) },
      r.sessionSegments.length === 0 ? { text: 'none', style: dim } : { text: r.sessionSegments.join(', ') },
      { text: n(r.entries) },
      { text: n(r.refreshPairs) },
      { text: r.first },
      { text: r.last },
      { text: line ? sparkline(line) : '', style: cyan },
      { text: `${gapText(cad.medianGapSeconds)} / ${gapText(cad.longestGapSeconds)}` },
    ];
  });
  const table = fitTable(
    c,
    [
      { head: 'request id', keep: 9, shrinkTo: 10 },
      { head: 'session segments', keep: 6, shrinkTo: 16 },
      { head: 'entries', right: true, keep: 8 },
      { head: 'pairs', right: true, keep: 7 },
      { head: 'first', keep: 5 },
      { head: 'last', keep: 3 },
      { head: 'refreshes', keep: 1 },
      { head: 'gap median / longest', keep: 2 },
    ],
    cells,
    o.width,
  );
  const out = ['', c.bold('Request ids'), ...table];
  if (rows.length < s.requestIds.length) out.push(c.dim(`  … ${n(s.requestIds.length - rows.length)} more (--all lists them)`));
  return out;
}

function signatureTable(s: Summary, o: TextOptions): string[] {
  if (s.signatures.length === 0) return [];
  const c = o.chalk;
  const dim = (t: string) => c.dim(t);
  const rows = o.all ? s.signatures : s.signatures.slice(0, SIGNATURES_SHOWN);
  const cells: Cell[][] = rows.map((sig) => [
    { text: n(sig.count) },
    { text: escapeControls(sig.kind) },
    sig.code === null ? { text: '-', style: dim } : escapeControls(sig.code) === '' ? { text: '(empty)', style: dim } : { text: escapeControls(sig.code) },
    sig.message === null ? { text: '-', style: dim } : escapeControls(sig.message) === '' ? { text: '(empty)', style: dim } : { text: escapeControls(sig.message) },
  ]);
  const table = fitTable(
    c,
    [
      { head: 'count', right: true, keep: 9 },
      { head: 'kind', keep: 8, shrinkTo: 6 },
      { head: 'code', keep: 7, shrinkTo: 6 },
      { head: 'message', keep: 9, shrinkTo: 20 },
    ],
    cells,
    o.width,
  );
  const heading = rows.length < s.signatures.length ? `Top signatures (${rows.length} of ${s.signatures.length})` : 'Signatures';
  return ['', c.bold(heading), ...table];
}

/** `  file:line  message`, the message wrapped under itself. */
function violationLine(f: Violation, o: TextOptions): string {
  const where = `${escapeControls(f.file)}:${f.line}`;
  return wrap(escapeControls(f.message), o.width, '      ', `  ${where}  `).replace(`  ${where}`, `  ${o.chalk.cyan(where)}`);
}

function violationList(violations: readonly Violation[], o: TextOptions): string[] {
  if (violations.length === 0) return [];
  const c = o.chalk;
  const out = ['', c.bold('Violations')];
  for (const rule of RULES) {
    const mine = violations.filter((f) => f.rule === rule.id);
    if (mine.length === 0) continue;
    const severity = mine[0].severity;
    const mark = severity === 'error' ? c.red('error  ') : c.yellow('warning');
    const head = `${severity === 'error' ? 'error  ' : 'warning'} ${rule.id} (${n(mine.length)})`;
    const summary = wrap(rule.summary, o.width, '  ', ' '.repeat(head.length + 2));
    out.push(`${mark} ${c.bold(rule.id)} ${c.dim(`(${n(mine.length)})`)}${c.dim(summary.slice(head.length))}`);
    const shown = o.all ? mine : mine.slice(0, VIOLATIONS_SHOWN);
    for (const f of shown) out.push(violationLine(f, o));
    if (shown.length < mine.length) out.push(c.dim(`  … ${n(mine.length - shown.length)} more (--all lists them)`));
  }
  return out;
}

/**
 * Real cPanel servers write PHP session ids of 5 or 6 bits a character, so every id breaks
 * request-id-format: when all the ids it flags fit one of PHP's alphabets, say once how
 * to accept it.
 */
export function alphabetHint(s: Summary, o: HintSettings): string | null {
  if (o.severities['request-id-format'] === 'off') return null;
  const flagged = s.requestIds.ids().filter((id) => !ALPHABETS[o.requestIdAlphabet].accepts(id));
  if (flagged.length === 0) return null;
  for (const name of ['php5', 'php6'] as const) {
    if (name === o.requestIdAlphabet || !flagged.every((id) => ALPHABETS[name].accepts(id))) continue;
    const bits = name === 'php5' ? 5 : 6;
    const which = flagged.length === 1 ? 'The request id' : `All ${n(flagged.length)} request ids`;
    return `${which} flagged by request-id-format fit PHP's session ids of ${bits} bits a character (${ALPHABETS[name].description}). If the server sets session.sid_bits_per_character = ${bits}, accept them: \`--request-id-alphabet ${name}\` or, in webmail-log.config.json: \`"requestIdAlphabet": "${name}"\``;
  }
  return null;
}

type HintSettings = Pick<ReportSettings, 'severities' | 'requestIdAlphabet'>;

function hintSection(s: Summary, o: TextOptions): string[] {
  const hint = alphabetHint(s, o);
  return hint === null ? [] : ['', `${o.chalk.bold('Hint')}`, wrap(hint, o.width, '  ', '  ')];
}

/** A section's title with a dim remark beside it, or under it when the line would be too long. */
function heading(title: string, remark: string, o: TextOptions): string {
  const c = o.chalk;
  if (title.length + 2 + remark.length <= o.width) return `${c.bold(title)}  ${c.dim(remark)}`;
  return `${c.bold(title)}\n${c.dim(wrap(remark, o.width, '  ', '  '))}`;
}

function timelineChart(s: Summary, o: TextOptions): string[] {
  const t = s.timeline;
  if (t === null || t.buckets < 2) return [];
  const c = o.chalk;
  const kinds = Object.keys(t.entries);
  const width = Math.max(...kinds.map((k) => k.length));
  const out = ['', heading('Timeline', `entries per ${bucketName(t.bucketSeconds)}, from ${t.start}`, o)];
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
    const ids = d.requestIdCount === 0 ? 'no request id' : d.requestIds.slice(0, 5).map(escapeControls).join(', ') + (d.requestIdCount > 5 ? `, … ${n(d.requestIdCount - 5)} more` : '');
    out.push(`${c.yellow('●')} ${c.bold(wrap(d.title, o.width, '  ', '  ').slice(2))}`);
    out.push(c.dim(wrap(`${plural(d.entries, 'entry')}, ${d.first} to ${d.last}; ${ids}`, o.width, '  ', '  ')));
    out.push(wrap(d.meaning, o.width, '  ', '  '));
    if (d.breakdown) {
      for (const b of d.breakdown.slice(0, 5)) out.push(wrap(`${escapeControls(b.user)} from ${escapeControls(b.client)}`, o.width, '           ', `    ${n(b.count).padStart(5)}  `));
      const more = d.breakdown.length > 5 ? `… ${n(d.breakdown.length - 5)} more users and addresses` : '';
      const others = d.breakdownOthers ? `${plural(d.breakdownOthers, 'failure')} from users and addresses not kept apart` : '';
      if (more || others) out.push(c.dim(wrap([more, others].filter(Boolean).join('; '), o.width, '    ', '    ')));
    }
    for (const step of d.fix) out.push(`  ${c.green('→')}${wrap(step, o.width, '    ', '    ').slice(3)}`);
    out.push(c.dim(`  (webmail-log explain ${d.id})`));
  }
  return out;
}

function notesSection(s: Summary, o: TextOptions): string[] {
  if (s.notes.length === 0) return [];
  const c = o.chalk;
  const shown = o.all ? s.notes : s.notes.slice(0, VIOLATIONS_SHOWN);
  const out = ['', heading('Notes', 'refresh gaps: no rule is broken, but the session stopped asking for a while', o)];
  for (const g of shown) out.push(wrap(`${g.message} ${c.dim(`${g.from} to ${g.to}`)}`, o.width, '    ', `  ${escapeControls(g.requestId)}  `));
  if (shown.length < s.notesTotal) {
    const listed = s.notes.length > shown.length ? ' (--all lists them)' : '';
    out.push(c.dim(`  … ${n(s.notesTotal - shown.length)} more${s.notesTotal > s.notes.length ? `; the first ${n(s.notes.length)} are kept` : ''}${listed}`));
  }
  return out;
}

/** The whole text report; `violations` in stream order (none when they were streamed). */
export function renderText(s: Summary, violations: readonly Violation[], o: TextOptions): string {
  const lines = [
    ...overview(s, o),
    ...timelineChart(s, o),
    ...requestIdTable(s, o),
    ...signatureTable(s, o),
    ...diagnosisSection(s, o),
    ...notesSection(s, o),
    ...violationList(violations, o),
    ...hintSection(s, o),
  ];
  return lines.join('\n') + '\n';
}

export const textReporter: Reporter = {
  description: 'a report for people (the default); on a live stream, each violation as it is found',
  // One line per violation as it comes, but only where someone watches a live stream.
  streams: (live, toStdout) => live && toStdout,
  violation: (f, settings) => liveLine(f, settings.chalk),
  end: (ctx) => (ctx.streamed ? '\n' : '') + renderText(ctx.summary, ctx.streamed ? [] : ctx.violations, ctx),
};
