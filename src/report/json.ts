// `--format json`: the SPEC §5 document, schema version 1.

import type { Summary } from '../analyse/analyser.js';
import type { Violation } from '../analyse/violation.js';
import { boundText, type Selection } from '../analyse/selection.js';
import { jsonText } from './json-text.js';
import type { Reporter } from './reporter.js';

export const SCHEMA_VERSION = 1;

/** The document without its violations list: also what a streaming summary carries. */
export function summaryDocument(s: Summary) {
  return {
    schemaVersion: SCHEMA_VERSION,
    summary: {
      files: s.files.length,
      lines: s.lines,
      entries: s.entries,
      dbErrors: s.dbErrors,
      otherEntries: s.otherEntries,
      malformedEntries: s.malformedEntries,
      requestIds: s.requestIds.length,
      refreshLookups: { local: s.refreshLookups.local, remote: s.refreshLookups.remote },
      refreshPairs: s.refreshPairs,
      violations: { error: s.violations.error, warning: s.violations.warning },
      truncatedEntries: s.truncatedEntries,
    },
    requestIds: s.requestIds,
    signatures: s.signatures,
    // Added keys (SPEC §5 allows them): what an operator reads besides the rules.
    timeline: s.timeline,
    notes: s.notes,
    notesTotal: s.notesTotal,
    diagnosis: s.diagnosis,
    ...(s.selection !== null ? { selection: selectionObject(s.selection, s.span?.first ?? null) } : {}),
  };
}

function selectionObject(sel: Selection, like: string | null) {
  const when = (t: number | null) => (t === null ? null : boundText(t, like));
  return {
    since: when(sel.since),
    until: when(sel.until),
    requestIds: sel.requestIds === null ? null : [...sel.requestIds],
    segments: sel.segments === null ? null : [...sel.segments],
  };
}

export function violationObject(f: Violation) {
  return { rule: f.rule, severity: f.severity, file: f.file, line: f.line, requestId: f.requestId, message: f.message };
}

/** The whole document; `violations` in stream order. */
export function renderJson(s: Summary, violations: readonly Violation[]): string {
  const doc = { ...summaryDocument(s), violations: violations.map(violationObject) };
  return jsonText(doc, 2) + '\n';
}

export const jsonReporter: Reporter = {
  description: 'one JSON document: summary, request ids, signatures, violations',
  end: (ctx) => renderJson(ctx.summary, ctx.violations),
};
