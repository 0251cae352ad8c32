// `--format github`: GitHub Actions workflow commands, one per violation, and a Markdown
// summary for $GITHUB_STEP_SUMMARY. Log text is attacker-controlled: the escaping below
// keeps it from ending a command line or starting one of its own.

import type { Summary } from '../analyse/analyser.js';
import { fileOf, messageOf, type Violation } from '../analyse/violation.js';
import { RULES } from '../analyse/rules.js';
import { escapeControls } from './escape.js';
import { repoPath, type RepoPaths } from './paths.js';
import type { Reporter } from './reporter.js';

/** Escaping of a command's message, as GitHub's toolkit does (@actions/core escapeData). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a command's property values (@actions/core escapeProperty). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command per violation; paths relative to the workspace, so annotations link. */
export function renderGithub(violations: readonly Violation[], paths: RepoPaths): string {
  return violations
    .map((f) => {
      // Control characters go first (a newline becomes the two characters \n), so
      // that nothing from the log can reach the line raw.
      const file = escapeProperty(escapeControls(repoPath(fileOf(f), paths).path));
      return `::${f.severity} file=${file},line=${f.line},title=${escapeProperty(f.rule)}::${escapeData(escapeControls(messageOf(f)))}\n`;
    })
    .join('');
}

/** Text for a Markdown table cell: no HTML, no links, no emphasis, no cell breaks. */
export function markdownCell(text: string): string {
  return escapeControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_{}[\]()#+!|~])/g, '\\$1');
}

/** The Markdown for $GITHUB_STEP_SUMMARY: an overview and the violations by rule. */
export function renderStepSummary(s: Summary, violations: readonly Violation[], shown = 5): string {
  const out: string[] = ['## webmail-log', ''];
  out.push('| | |', '|---|---|');
  out.push(`| inputs | ${s.files.map(markdownCell).join(', ') || 'none'} |`);
  out.push(`| lines | ${s.lines} |`);
  out.push(`| entries | ${s.entries} (${s.dbErrors} DB errors, ${s.otherEntries} other, ${s.malformedEntries} malformed) |`);
  out.push(`| request ids | ${s.requestIds.length} |`);
  out.push(`| refresh pairs | ${s.refreshPairs} (${s.refreshLookups.local} local, ${s.refreshLookups.remote} remote-sync lookups) |`);
  out.push(`| violations | ${s.violations.error} errors, ${s.violations.warning} warnings |`, '');
  if (violations.length > 0) {
    out.push('### Violations by rule', '', '| rule | severity | count | first |', '|---|---|---|---|');
    for (const rule of RULES) {
      const mine = violations.filter((f) => f.rule === rule.id);
      if (mine.length === 0) continue;
      const first = mine
        .slice(0, shown)
        .map((f) => `${markdownCell(f.file)}:${f.line} ${markdownCell(f.message)}`)
        .join('<br>');
      const more = mine.length > shown ? `<br>… ${mine.length - shown} more` : '';
      out.push(`| ${rule.id} | ${mine[0].severity} | ${mine.length} | ${first}${more} |`);
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}

export const githubReporter: Reporter = {
  description: 'GitHub Actions annotations (and a step summary in $GITHUB_STEP_SUMMARY)',
  end: (ctx) => renderGithub(ctx.violations, ctx.paths),
  beside(ctx) {
    const path = ctx.env.GITHUB_STEP_SUMMARY;
    return path ? [{ path, text: renderStepSummary(ctx.summary, ctx.violations), what: 'GITHUB_STEP_SUMMARY' }] : [];
  },
};
