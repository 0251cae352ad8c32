// One analyse run: settings → the pipeline → the report and the exit status. Findings
// go out as they are decided in the streaming formats, and are gathered otherwise.

import type { ChalkInstance } from 'chalk';
import { compareFindings, type Finding } from './analyse/finding.js';
import { severities, type RuleId, type Severity } from './analyse/rules.js';
import { readInputs } from './input/read.js';
import type { Io } from './io.js';
import { StreamChecker } from './pipeline.js';
import { renderJson } from './report/json.js';
import { findingLine, ndjsonSummary, ndjsonViolation } from './report/live.js';
import { renderText } from './report/text.js';

export const EXIT_OK = 0;
export const EXIT_VIOLATIONS = 1;
export const EXIT_TROUBLE = 2;

export const FORMATS = ['text', 'json', 'ndjson'] as const;
export type Format = (typeof FORMATS)[number];

export interface AnalyseOptions {
  inputs: string[];
  format: Format;
  pairWindow: number;
  rules: Partial<Record<RuleId, Severity>>;
  strict: boolean;
  all: boolean;
  chalk: ChalkInstance;
  follow: boolean;
  fromStart: boolean;
  flushAfterMs: number;
  /** How often followed files are polled (tests make it short). */
  pollMs?: number;
}

export async function analyse(o: AnalyseOptions, io: Io): Promise<number> {
  const live = o.follow || (o.inputs.includes('-') && io.stdinIsLive);
  const streaming = o.format === 'ndjson' || (o.format === 'text' && live);
  const findings: Finding[] = [];
  const onFinding = !streaming
    ? (f: Finding) => void findings.push(f)
    : o.format === 'ndjson'
      ? (f: Finding) => io.out(ndjsonViolation(f))
      : (f: Finding) => io.out(findingLine(f, o.chalk));
  const checker = new StreamChecker({ pairWindow: o.pairWindow, severities: severities(o.rules) }, onFinding);

  const stop = new AbortController();
  const stopListening = io.onInterrupt(() => stop.abort());
  let inputError;
  try {
    inputError = await readInputs(o.inputs, checker, {
      follow: o.follow,
      fromStart: o.fromStart,
      flushAfterMs: o.flushAfterMs,
      stdinLive: io.stdinIsLive,
      signal: stop.signal,
      pollMs: o.pollMs,
    });
  } finally {
    stopListening();
  }
  const summary = checker.finish();

  findings.sort(compareFindings);
  if (o.format === 'json') io.out(renderJson(summary, findings));
  else if (o.format === 'ndjson') io.out(ndjsonSummary(summary));
  else io.out((streaming ? '\n' : '') + renderText(summary, findings, { chalk: o.chalk, all: o.all }));

  if (inputError !== null) throw inputError;
  const { error, warning } = summary.violations;
  return error > 0 || (o.strict && warning > 0) ? EXIT_VIOLATIONS : EXIT_OK;
}
