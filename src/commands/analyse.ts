// `webmail-log analyse`: settings → the pipeline → reports → an exit status. Each report
// goes to stdout or to a file; a reporter that streams writes each violation as it is
// decided, the others write once, from the gathered violations, at the end.

import { appendFileSync } from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import type { AlphabetName } from '../analyse/alphabet.js';
import { compareViolations, type Violation } from '../analyse/violation.js';
import { severities as withDefaults, type RuleId, type Severity } from '../analyse/rules.js';
import type { Selection } from '../analyse/selection.js';
import { OutputError, UsageError } from '../errors.js';
import { CheckpointStore } from '../input/checkpoints.js';
import { readExcerpts } from '../input/excerpts.js';
import { VIOLATIONS_SHOWN } from '../report/html.js';
import { isLive } from '../input/live.js';
import { inputSize, readInputs } from '../inputs.js';
import type { Io } from '../io.js';
import { StreamChecker } from '../pipeline.js';
import { repoPaths } from '../report/paths.js';
import { Progress, PROGRESS_FROM, wantProgress } from '../report/progress.js';
import type { ReportPiece, ReportSettings } from '../report/reporter.js';
import type { MetricsServer } from './metrics-server.js';
import { exitStatus } from './status.js';
import { checkOutputs, openOutput, writeReason, type Output, type OutputSpec } from './outputs.js';

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
  /** Columns of the text report. */
  width: number;
  host: string;
  /** The metrics' `log` label (--log-name), or null for the inputs as given. */
  logName?: string | null;
  /** Serve live metrics here (--metrics-listen HOST:PORT), or null. */
  metricsListen?: string | null;
  follow: boolean;
  fromStart: boolean;
  /** With follow: the checkpoint file (--state), or null. */
  statePath?: string | null;
  flushAfterMs: number;
  /** How often followed files are polled (tests make it short). */
  pollMs?: number;
  /** What to report and summarise (the rules see everything). */
  selection?: Selection | null;
  /** Refresh gaps longer than this are noted. */
  gapSeconds?: number;
  /** Threads for parsing large files, and the bytes of input from which a run gets them. */
  jobs: number;
  parallelFrom: number;
}

/** A report in a file is never coloured. */
const PLAIN = new Chalk({ level: 0 });

/** The first `cap` violations of each rule: those a capped report shows. */
function shownPerRule(violations: readonly Violation[], cap: number): Violation[] {
  const seen = new Map<string, number>();
  return violations.filter((v) => {
    const k = seen.get(v.rule) ?? 0;
    seen.set(v.rule, k + 1);
    return k < cap;
  });
}

/**
 * Pieces of a report gathered into writes of about the output's pieceBytes (few system
 * calls), each once the one before has left the process: a report listing 100,000
 * request ids is never held whole, not even in stdout's queue. Lent bytes (ReportPiece)
 * are written as they come, the next made while they are written (one write in flight:
 * a lent piece is good until the one after the next is asked for).
 */
async function writeReport(out: Output, report: string | Iterable<ReportPiece>): Promise<void> {
  if (typeof report === 'string') {
    out.write(report);
    return;
  }
  let pending: string[] = [];
  let size = 0;
  /** The lent piece being written. */
  let writing: Promise<void> | null = null;
  const flush = async () => {
    if (writing !== null) await writing;
    writing = null;
    if (size > 0) out.write(pending.join(''));
    pending = [];
    size = 0;
  };
  for (const piece of report) {
    if (typeof piece !== 'string') {
      // The text before it, and the piece before it, out first.
      await flush();
      writing = out.writeLent(piece);
      continue;
    }
    pending.push(piece);
    size += piece.length;
    if (size >= out.pieceBytes) {
      await flush();
      await out.drained();
    }
  }
  await flush();
}

export async function analyse(o: AnalyseOptions, io: Io): Promise<number> {
  checkOutputs(o.outputs);
  const live = isLive(o.inputs, o.follow, io.stdinIsLive);
  if (o.metricsListen && !live) throw new UsageError('--metrics-listen serves a live run: use it with --follow or a stream (a pipe)');
  const startedAt = Date.now();
  const logName = o.logName ?? o.inputs.join(' ');
  const outputs: Output[] = [];
  let server: MetricsServer | null = null;
  let complete = false;
  try {
    for (const spec of o.outputs) outputs.push(openOutput(spec, io, live));
    const severities = withDefaults(o.rules);
    const settingsFor = (out: Output): ReportSettings => ({
      severities,
      requestIdAlphabet: o.requestIdAlphabet,
      chalk: out.spec.path === null ? o.chalk : PLAIN,
      all: o.all,
      width: o.width,
      paths: repoPaths(io.env, process.cwd()),
      host: o.host,
      logName,
      env: io.env,
    });
    const settings = outputs.map(settingsFor);
    const streaming = outputs.map((out, i) => [out, settings[i]] as const).filter(([out]) => out.streams);
    const gather = outputs.some((out) => !out.streams);
    const violations: Violation[] = [];
    const onViolation = (f: Violation) => {
      if (o.quiet && f.severity !== 'error') return;
      if (gather) violations.push(f);
      for (const [out, s] of streaming) out.write(out.reporter.violation!(f, s));
    };
    const checker = new StreamChecker(
      {
        pairWindow: o.pairWindow,
        severities,
        requestIdAlphabet: o.requestIdAlphabet,
        selection: o.selection,
        gapSeconds: o.gapSeconds,
        warmRows: outputs.find((out) => out.reporter.warmRows !== undefined)?.reporter.warmRows,
      },
      onViolation,
    );
    // prom-client and node:http take 45-50 ms to load: only a run that serves metrics pays.
    if (o.metricsListen) server = await (await import('./metrics-server.js')).serveMetrics(o.metricsListen, () => checker.counts(), severities, logName);

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
        state: o.statePath ? CheckpointStore.load(o.statePath) : null,
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
    violations.sort(compareViolations);
    const run = { timestamp: Date.now() / 1000, durationSeconds: (Date.now() - startedAt) / 1000, success: inputError === null };
    // The lines a violation points at, read again for the reports that show them (HTML).
    const excerpts = o.outputs.some((spec) => spec.format === 'html') ? await readExcerpts(summary.files, shownPerRule(violations, VIOLATIONS_SHOWN)) : null;
    const excerpt = excerpts === null ? undefined : (v: Violation) => excerpts.get(`${v.fileIndex}:${v.line}`) ?? [];
    for (const [i, out] of outputs.entries()) {
      const ctx = { ...settings[i], summary, violations, streamed: out.streams, run, excerpt, pieceBytes: out.pieceBytes };
      await writeReport(out, out.reporter.end(ctx));
      for (const beside of out.reporter.beside?.(ctx) ?? []) {
        try {
          appendFileSync(beside.path, beside.text);
        } catch (err) {
          throw new OutputError(`cannot write ${beside.what} ${beside.path}: ${writeReason(err)}`);
        }
      }
    }
    complete = true;
    if (inputError !== null) throw inputError;
    return exitStatus(summary.violations, o, io);
  } finally {
    for (const out of outputs) out.close(complete);
    await server?.close();
  }
}
