// `webmail-log merge REPORT.json…`: one fleet report from the JSON reports of several
// hosts (written by `analyse --format json --host NAME`, or by merge itself). Exact:
// every count is the sum; request ids, signatures, diagnoses and violations keep their
// host (one id on two hosts is two rows); nothing is deduplicated. Hosts are ordered by
// name, so the output does not depend on the order of the inputs, and merging merged
// reports is merging the originals: merge(merge(a, b), c) = merge(a, b, c).

import { readFileSync } from 'node:fs';
import { Chalk, type ChalkInstance } from 'chalk';
import { RequestIdList, type RequestIdRow, type Signature } from '../analyse/aggregates.js';
import type { Counts, Summary } from '../analyse/analyser.js';
import type { DiagnosisId } from '../analyse/knowledge.js';
import type { Diagnosis } from '../analyse/diagnosis.js';
import { RULE_IDS, severities, type RuleId } from '../analyse/rules.js';
import type { Violation } from '../analyse/violation.js';
import { InputError } from '../errors.js';
import { reason } from '../input/source.js';
import { SCHEMA_VERSION, summaryDocument, violationObject } from '../report/json.js';
import { jsonText } from '../report/json-text.js';
import { repoPaths } from '../report/paths.js';
import { reportText, type ReportContext } from '../report/reporter.js';
import type { Io } from '../io.js';
import { exitStatus } from './status.js';
import { checkOutputs, openOutput, type Output, type OutputSpec } from './outputs.js';

/** The summary of SPEC §5, as a report holds it: the shape json.ts writes. */
export type ReportSummary = ReturnType<typeof summaryDocument>['summary'];

/** A violation as a report holds it. */
type JsonViolation = ReturnType<typeof violationObject>;

/** One host's part of a fleet report. */
export interface HostPart {
  host: string;
  summary: ReportSummary;
  requestIds: RequestIdRow[];
  signatures: Signature[];
  diagnosis: Diagnosis[];
  violations: JsonViolation[];
}

const SUMMED = ['files', 'lines', 'entries', 'dbErrors', 'otherEntries', 'malformedEntries', 'requestIds', 'refreshPairs', 'truncatedEntries'] as const;

function sum(parts: readonly HostPart[]): ReportSummary {
  const out: ReportSummary = { files: 0, lines: 0, entries: 0, dbErrors: 0, otherEntries: 0, malformedEntries: 0, requestIds: 0, refreshLookups: { local: 0, remote: 0 }, refreshPairs: 0, violations: { error: 0, warning: 0 }, truncatedEntries: 0 };
  for (const p of parts) {
    for (const k of SUMMED) out[k] += p.summary[k] ?? 0;
    out.refreshLookups.local += p.summary.refreshLookups.local;
    out.refreshLookups.remote += p.summary.refreshLookups.remote;
    out.violations.error += p.summary.violations.error;
    out.violations.warning += p.summary.violations.warning;
  }
  return out;
}

type Doc = Record<string, unknown>;

function isSummary(v: unknown): v is ReportSummary {
  const s = v as ReportSummary;
  return typeof s === 'object' && s !== null && typeof s.entries === 'number' && typeof s.refreshLookups?.local === 'number' && typeof s.violations?.error === 'number';
}

/** The host parts of one report file: one for a host's report, several for a merged one. */
function partsOf(file: string, doc: Doc): HostPart[] {
  const fail = (what: string): never => {
    throw new InputError(`${file}: ${what}`);
  };
  if (typeof doc !== 'object' || doc === null || !('schemaVersion' in doc)) fail('not a webmail-log report (no schemaVersion)');
  if (doc.schemaVersion !== SCHEMA_VERSION) fail(`schemaVersion ${JSON.stringify(doc.schemaVersion)}; merge reads ${SCHEMA_VERSION}`);
  if (!isSummary(doc.summary) || !Array.isArray(doc.violations) || !Array.isArray(doc.requestIds)) fail('not a webmail-log report (no summary, requestIds or violations)');
  const list = <T>(key: string): T[] => (Array.isArray(doc[key]) ? (doc[key] as T[]) : []);
  if (Array.isArray(doc.hosts)) {
    // A merged report: every row says its host.
    const of = <T extends { host?: string }>(rows: T[], host: string) => rows.filter((r) => r.host === host).map(({ host: _, ...rest }) => rest as unknown);
    return (doc.hosts as { host: string; summary: ReportSummary }[]).map((h) => ({
      host: h.host,
      summary: h.summary,
      requestIds: of(list<RequestIdRow & { host: string }>('requestIds'), h.host) as RequestIdRow[],
      signatures: of(list<Signature & { host: string }>('signatures'), h.host) as Signature[],
      diagnosis: of(list<Diagnosis & { host: string }>('diagnosis'), h.host) as Diagnosis[],
      violations: of(list<JsonViolation & { host: string }>('violations'), h.host) as JsonViolation[],
    }));
  }
  if (typeof doc.host !== 'string' || doc.host === '') fail('a report without a host (write it with analyse --host NAME)');
  return [
    {
      host: doc.host as string,
      summary: doc.summary as ReportSummary,
      requestIds: list('requestIds'),
      signatures: list('signatures'),
      diagnosis: list('diagnosis'),
      violations: list('violations'),
    },
  ];
}

/** Reads the reports and merges them; a file that is not one, or a host twice, stops it. */
export function readFleet(files: readonly string[]): HostPart[] {
  const seen = new Map<string, string>();
  const parts: HostPart[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw new InputError(`cannot read ${file}: ${reason(err)}`);
    }
    let doc: Doc;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new InputError(`${file}: not a webmail-log report (not JSON)`);
    }
    for (const part of partsOf(file, doc)) {
      const other = seen.get(part.host);
      if (other !== undefined) throw new InputError(`${file}: host "${part.host}" is already in ${other}`);
      seen.set(part.host, file);
      parts.push(part);
    }
  }
  return parts.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
}

/** The fleet report as JSON: the same keys as a host's report, each row with its host. */
export function fleetJson(parts: readonly HostPart[]): string {
  const tag = <T>(host: string, rows: readonly T[]) => rows.map((r) => ({ host, ...r }));
  const doc = {
    schemaVersion: SCHEMA_VERSION,
    hosts: parts.map((p) => ({ host: p.host, summary: p.summary })),
    summary: sum(parts),
    requestIds: parts.flatMap((p) => tag(p.host, p.requestIds)),
    signatures: parts.flatMap((p) => tag(p.host, p.signatures)),
    diagnosis: parts.flatMap((p) => tag(p.host, p.diagnosis)),
    violations: parts.flatMap((p) => tag(p.host, p.violations)),
  };
  return jsonText(doc, 2) + '\n';
}

/**
 * The fleet as one stream for the other reporters: each host's files in turn, named
 * `host:file`, its violations in the order of its report (stream position, then line,
 * then the rules table).
 */
export function fleetStream(parts: readonly HostPart[]): { summary: Summary; violations: Violation[] } {
  const files: string[] = [];
  const violations: Violation[] = [];
  const byRule = Object.fromEntries(RULE_IDS.map((id) => [id, 0])) as Record<RuleId, number>;
  for (const p of parts) {
    const index = new Map<string, number>();
    for (const v of p.violations) {
      const name = `${p.host}:${v.file}`;
      if (!index.has(name)) {
        index.set(name, files.length);
        files.push(name);
      }
      byRule[v.rule]++;
      violations.push({ ...v, fileIndex: index.get(name) as number, file: name, host: p.host });
    }
  }
  violations.sort((a, b) => a.fileIndex - b.fileIndex || 0);
  const total = sum(parts);
  const summary: Summary = {
    files,
    lines: total.lines,
    entries: total.entries,
    dbErrors: total.dbErrors,
    otherEntries: total.otherEntries,
    malformedEntries: total.malformedEntries,
    refreshLookups: total.refreshLookups,
    refreshPairs: total.refreshPairs,
    violations: total.violations,
    truncatedEntries: total.truncatedEntries,
    truncatedAt: [],
    requestIds: RequestIdList.of(parts.flatMap((p) => p.requestIds.map((r) => ({ ...r, id: `${p.host}/${r.id}` })))),
    signatures: parts
      .flatMap((p) => p.signatures)
      .reduce((rows, s) => {
        const same = rows.find((r) => r.kind === s.kind && r.code === s.code && r.message === s.message);
        if (same) same.count += s.count;
        else rows.push({ ...s });
        return rows;
      }, [] as Signature[])
      .sort((a, b) => b.count - a.count),
    span: null,
    timeline: null,
    notes: [],
    notesTotal: 0,
    diagnosis: parts.flatMap((p) => p.diagnosis.map((d) => ({ ...d, title: `${d.title} (${p.host})` }))),
    selection: null,
    violationsByRule: byRule,
  };
  return { summary, violations };
}

/** Each host's counts, for the metrics of a fleet. */
export function fleetCounts(parts: readonly HostPart[]): { host: string; counts: Counts }[] {
  return parts.map((p) => {
    const byRule = Object.fromEntries(RULE_IDS.map((id) => [id, 0])) as Record<RuleId, number>;
    for (const v of p.violations) byRule[v.rule]++;
    const diagnosisEntries: Partial<Record<DiagnosisId, number>> = {};
    for (const d of p.diagnosis) diagnosisEntries[d.id] = d.entries;
    const s = p.summary;
    return {
      host: p.host,
      counts: { lines: s.lines, entries: s.entries, refreshPairs: s.refreshPairs, refreshLookups: s.refreshLookups, requestIds: s.requestIds, violationsByRule: byRule, diagnosisEntries },
    };
  });
}

export interface MergeOptions {
  reports: string[];
  outputs: OutputSpec[];
  strict: boolean;
  maxWarnings: number | null;
  chalk: ChalkInstance;
  width: number;
  all: boolean;
}

/** `webmail-log merge`: reads the reports, writes the fleet report(s), returns the exit status. */
export function merge(o: MergeOptions, io: Io): number {
  checkOutputs(o.outputs);
  const parts = readFleet(o.reports);
  const { summary, violations } = fleetStream(parts);
  const fleet = fleetCounts(parts);
  const outputs: Output[] = [];
  let complete = false;
  try {
    for (const spec of o.outputs) outputs.push(openOutput(spec, io, false));
    for (const out of outputs) {
      if (out.spec.format === 'json') {
        out.write(fleetJson(parts));
        continue;
      }
      const ctx: ReportContext = {
        severities: severities(),
        requestIdAlphabet: 'hex',
        chalk: out.spec.path === null ? o.chalk : new Chalk({ level: 0 }),
        all: o.all,
        width: o.width,
        paths: repoPaths(io.env, process.cwd()),
        host: fleet.map((h) => h.host).join(', '),
        logName: 'fleet',
        env: io.env,
        summary,
        violations,
        streamed: false,
        run: { timestamp: Date.now() / 1000, durationSeconds: 0, success: true },
        fleet,
      };
      const report = out.reporter.end(ctx);
      out.write(reportText(report));
    }
    complete = true;
  } finally {
    for (const out of outputs) out.close(complete);
  }
  return exitStatus(summary.violations, o, io);
}
