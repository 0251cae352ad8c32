// Formats that print each finding the moment it is decided: one text line for a live
// terminal, and NDJSON (one JSON object a line) for programs.

import type { ChalkInstance } from 'chalk';
import type { Summary } from '../analyse/analyser.js';
import type { Finding } from '../analyse/finding.js';
import { escapeControls } from './escape.js';
import { jsonText } from './json-text.js';
import { summaryDocument, violationObject } from './json.js';

/** `file:line  severity  rule  message`. */
export function findingLine(f: Finding, c: ChalkInstance): string {
  const severity = f.severity === 'error' ? c.red('error  ') : c.yellow('warning');
  return `${c.cyan(`${escapeControls(f.file)}:${f.line}`)}  ${severity}  ${c.bold(f.rule)}  ${escapeControls(f.message)}\n`;
}

export function ndjsonViolation(f: Finding): string {
  return jsonText({ type: 'violation', ...violationObject(f) }) + '\n';
}

/** The SPEC §5 document without its violations list, as the last line. */
export function ndjsonSummary(s: Summary): string {
  return jsonText({ type: 'summary', ...summaryDocument(s) }) + '\n';
}
