// One analyse run: settings → the pipeline → reports and an exit status. Each report
// goes to stdout or to a file; streaming formats write each finding as it is decided,
// the others are written once, from the gathered findings, at the end.

import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import type { AlphabetName } from './analyse/alphabet.js';
import type { Selection } from './analyse/selection.js';
import type { Summary } from './analyse/analyser.js';
import { compareFindings, type Finding } from './analyse/finding.js';
import { severities as withDefaults, type RuleId, type Severities, type Severity } from './analyse/rules.js';
import { OutputError, UsageError } from './errors.js';
import { inputSize, isStreamPath, readInputs } from './input/read.js';
import type { Io } from './io.js';
import { StreamChecker } from './pipeline.js';
import { renderGithub, renderStepSummary } from './report/github.js';
import { renderGitlab } from './report/gitlab.js';
import { renderJson } from './report/json.js';
import { renderJunit } from './report/junit.js';
import { findingLine, ndjsonSummary, ndjsonViolation } from './report/live.js';
import { renderSarif } from './report/sarif.js';
import { Progress, PROGRESS_FROM, wantProgress } from './report/progress.js';
import { renderText } from './report/text.js';

export const EXIT_OK = 0;
export const EXIT_VIOLATIONS = 1;
export const EXIT_TROUBLE = 2;

export const FORMATS = ['text', 'json', 'ndjson', 'github', 'junit', 'sarif', 'gitlab'] as const;
export type Format = (typeof FORMATS)[number];

/** A report: its format, and the file it goes to (null: stdout). */
export interface OutputSpec {
  format: Format;
  path: string | null;
}

/** `sarif` or `sarif=report.sarif`, as `--format` and the config file take it. */
export function parseOutputSpec(text: string): OutputSpec {
  const eq = text.indexOf('=');
  const format = eq < 0 ? text : text.slice(0, eq);
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown format "${format}" (${FORMATS.join(', ')})`);
  }
  const path = eq < 0 ? null : text.slice(eq + 1);
  if (path === '') throw new UsageError(`--format ${format}=: name the file after =`);
  return { format: format as Format, path: path === '-' ? null : path };
}

/** Checks a list of reports: one at most on stdout, and no file named twice. */
export function checkOutputs(outputs: readonly OutputSpec[]): void {
  if (outputs.filter((o) => o.path === null).length > 1) {
    throw new UsageError('only one format can go to stdout; send the others to files with --format <format>=<file>');
  }
  const paths = outputs.flatMap((o) => (o.path === null ? [] : [o.path]));
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice !== undefined) throw new UsageError(`two reports would be written to ${twice}`);
}

export interface AnalyseOptions {
  inputs: string[];
  outputs: OutputSpec[];
  pairWindow: number;
  rules: Partial<Record<RuleId, Severity>>;
  requestIdAlphabet: AlphabetName;
  strict: boolean;
  /** Report errors only; the exit status still counts warnings. */
  quiet: boolean;
  /** Exit 1 when there are more warnings than this. */
  maxWarnings: number | null;
  all: boolean;
  chalk: ChalkInstance;
  follow: boolean;
  fromStart: boolean;
  flushAfterMs: number;
  /** How often followed files are polled (tests make it short). */
  pollMs?: number;
  /** What to report and summarise (the rules see everything). */
  selection?: Selection | null;
  /** Refresh gaps longer than this are noted. */
  gapSeconds?: number;
  /** Threads for parsing a large file, and the size from which a file gets them. */
  jobs: number;
  parallelFrom: number;
}

interface Sink {
  spec: OutputSpec;
  streaming: boolean;
  write(text: string): void;
  close(): void;
}

function openSink(spec: OutputSpec, io: Io, live: boolean): Sink {
  const streaming = spec.format === 'ndjson' || (spec.format === 'text' && live && spec.path === null);
  if (spec.path === null) return { spec, streaming, write: io.out, close: () => {} };
  let fd: number;
  try {
    fd = openSync(spec.path, 'w');
  } catch (err) {
    throw new OutputError(`cannot write ${spec.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return { spec, streaming, write: (text) => void writeSync(fd, text), close: () => closeSync(fd) };
}

const PLAIN = new Chalk({ level: 0 });

function finalReport(sink: Sink, s: Summary, findings: readonly Finding[], o: AnalyseOptions, severities: Severities): string {
  switch (sink.spec.format) {
    case 'text': {
      // A report in a file is never coloured.
      const chalk = sink.spec.path === null ? o.chalk : PLAIN;
      return (sink.streaming ? '\n' : '') + renderText(s, sink.streaming ? [] : findings, { chalk, all: o.all });
    }
    case 'json':
      return renderJson(s, findings);
    case 'ndjson':
      return ndjsonSummary(s);
    case 'github':
      return renderGithub(findings);
    case 'junit':
      return renderJunit(s, findings, severities);
    case 'sarif':
      return renderSarif(findings);
    case 'gitlab':
      return renderGitlab(findings);
  }
}

export async function analyse(o: AnalyseOptions, io: Io): Promise<number> {
  checkOutputs(o.outputs);
  const live = o.follow || (o.inputs.includes('-') && io.stdinIsLive) || o.inputs.some(isStreamPath);
  const sinks: Sink[] = [];
  try {
    for (const spec of o.outputs) sinks.push(openSink(spec, io, live));
    const streamed = sinks.filter((k) => k.streaming);
    const gather = sinks.some((k) => !k.streaming);
    const shown = (f: Finding) => !o.quiet || f.severity === 'error';
    const findings: Finding[] = [];
    const onFinding = (f: Finding) => {
      if (!shown(f)) return;
      if (gather) findings.push(f);
      for (const k of streamed) k.write(k.spec.format === 'ndjson' ? ndjsonViolation(f) : findingLine(f, o.chalk));
    };
    const severities = withDefaults(o.rules);
    const checker = new StreamChecker(
      { pairWindow: o.pairWindow, severities, requestIdAlphabet: o.requestIdAlphabet, selection: o.selection, gapSeconds: o.gapSeconds },
      onFinding,
    );

    const stop = new AbortController();
    const stopListening = io.onInterrupt(() => stop.abort());
    const size = !o.follow && wantProgress(io.stderrIsTTY, io.env) ? inputSize(o.inputs) : null;
    const progress = size !== null && size >= PROGRESS_FROM ? new Progress(size, io.err) : null;
    let inputError;
    try {
      inputError = await readInputs(o.inputs, checker, {
        follow: o.follow,
        fromStart: o.fromStart,
        flushAfterMs: o.flushAfterMs,
        stdinLive: io.stdinIsLive,
        signal: stop.signal,
        pollMs: o.pollMs,
        jobs: o.jobs,
        parallelFrom: o.parallelFrom,
        onRead: progress ? (bytes) => progress.add(bytes) : undefined,
        note: (text) => {
          progress?.clear();
          io.err(`webmail-log: note: ${text}\n`);
        },
      });
    } finally {
      stopListening();
      progress?.clear();
    }
    const summary = checker.finish();
    findings.sort(compareFindings);
    for (const sink of sinks) sink.write(finalReport(sink, summary, findings, o, severities));
    const stepSummary = io.env.GITHUB_STEP_SUMMARY;
    if (stepSummary && o.outputs.some((spec) => spec.format === 'github')) {
      try {
        appendFileSync(stepSummary, renderStepSummary(summary, findings));
      } catch (err) {
        throw new OutputError(`cannot write GITHUB_STEP_SUMMARY ${stepSummary}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }

    if (inputError !== null) throw inputError;
    const { error, warning } = summary.violations;
    if (error > 0) return EXIT_VIOLATIONS;
    // Warnings fail the run only when asked to; then say why, as ESLint does.
    const warnings = `${warning} warning${warning === 1 ? '' : 's'}`;
    if (o.strict && warning > 0) {
      io.err(`webmail-log: ${warnings}, and --strict fails on any\n`);
      return EXIT_VIOLATIONS;
    }
    if (o.maxWarnings !== null && warning > o.maxWarnings) {
      io.err(`webmail-log: ${warnings}, more than --max-warnings ${o.maxWarnings}\n`);
      return EXIT_VIOLATIONS;
    }
    return EXIT_OK;
  } finally {
    for (const sink of sinks) sink.close();
  }
}
