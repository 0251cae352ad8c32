// `--format json`: the SPEC §5 document, schema version 1.

import type { RequestIdList } from '../analyse/aggregates.js';
import type { Summary } from '../analyse/analyser.js';
import type { Violation } from '../analyse/violation.js';
import { boundText, type Selection } from '../analyse/selection.js';
import { jsonText } from './json-text.js';
import { packedRowsText, ROW_WARMING } from './row-bytes.js';
import { WRITE_PIECE, type Reporter, type ReportPiece } from './reporter.js';
import { rowText } from './row-text.js';

export const SCHEMA_VERSION = 1;

/** The document without its violations list: also what a streaming summary carries. */
export function summaryDocument(s: Summary, host: string) {
  return {
    schemaVersion: SCHEMA_VERSION,
    // Added key: the host the report speaks for (--host), what `merge` tells hosts apart by.
    host,
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

/** Stands in the document for a long list, which is written element by element. */
const LIST = '\u0000list\u0000';

/**
 * A list at the document's first level, as JSON.stringify(doc, null, 2) writes it (or
 * flat), in pieces of about a write (`pieceBytes` characters): a log's hundred thousand
 * request ids never make one string, and are not handed on one by one either (a piece
 * each cost more than its row).
 */
function* listText<T>(length: number, item: (i: number) => T, text: (item: T, indent: boolean) => string, indent = true, pieceBytes = WRITE_PIECE): Generator<string> {
  if (length === 0) {
    yield '[]';
    return;
  }
  const between = indent ? ',\n    ' : ',';
  let piece = indent ? '[\n    ' : '[';
  for (let i = 0; i < length; i++) {
    piece += (i === 0 ? '' : between) + text(item(i), indent);
    if (piece.length >= pieceBytes) {
      yield piece;
      piece = '';
    }
  }
  yield piece + (indent ? '\n  ]' : ']');
}

/**
 * A violation as jsonText(violationObject(v), 2) writes it, indented one level more: its
 * values written one by one, not the object with JSON.stringify and the text then gone
 * over twice more by regular expressions (for each of a log's thousands of violations,
 * 5-6 ms of *short*'s report, after the reading, with the other core idle).
 */
export function violationText(v: Violation, indent: boolean): string {
  if (!indent) return jsonText(violationObject(v));
  return (
    `{\n      "rule": ${jsonText(v.rule)},\n      "severity": ${jsonText(v.severity)},\n      "file": ${jsonText(v.file)},` +
    `\n      "line": ${jsonText(v.line)},\n      "requestId": ${jsonText(v.requestId)},\n      "message": ${jsonText(v.message)}\n    }`
  );
}

/** The request-id list, as listText writes it: written as bytes from the packed rows, when they are. */
function* requestIdsText(list: RequestIdList, indent: boolean, pieceBytes: number): Generator<ReportPiece> {
  const packed = list.packed();
  if (packed !== null) yield* packedRowsText(packed, indent, pieceBytes);
  else yield* listText(list.length, (i) => list.row(i), rowText, indent, pieceBytes);
}

/** The summary as NDJSON's last line, in pieces: on a long follow it lists every request id. */
export function* summaryLine(s: Summary, host: string, pieceBytes = WRITE_PIECE): Generator<ReportPiece> {
  const doc = { type: 'summary', ...summaryDocument(s, host), requestIds: LIST };
  const [before, after] = jsonText(doc).split(JSON.stringify(LIST));
  yield before;
  yield* requestIdsText(s.requestIds, false, pieceBytes);
  yield after + '\n';
}

/** The whole document, in pieces of about `pieceBytes`; `violations` in stream order. Byte for byte JSON.stringify's. */
export function* renderJson(s: Summary, violations: readonly Violation[], host: string, pieceBytes = WRITE_PIECE): Generator<ReportPiece> {
  const doc = { ...summaryDocument(s, host), requestIds: LIST, violations: LIST };
  const [beforeIds, beforeViolations, rest] = jsonText(doc, 2).split(JSON.stringify(LIST));
  yield beforeIds;
  yield* requestIdsText(s.requestIds, true, pieceBytes);
  yield beforeViolations;
  yield* listText(violations.length, (i) => violations[i], violationText, true, pieceBytes);
  yield rest + '\n';
}

export const jsonReporter: Reporter = {
  description: 'one JSON document: summary, request ids, signatures, violations',
  end: (ctx) => renderJson(ctx.summary, ctx.violations, ctx.host, ctx.pieceBytes),
  warmRows: ROW_WARMING,
};
