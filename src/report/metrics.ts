// The Prometheus metric families, in one table: the textfile report (node_exporter's
// textfile collector) and the live /metrics endpoint write the same names, helps and
// labels from it. Labels stay bounded (rules, severities, sides, diagnosis ids, the log's
// name, the version): never a request id, a user, an address or a message. Every series
// carries `log`, since node_exporter drops one of two equal series from two files; none
// is named instance, job or host, which Prometheus renames.

import type { Counts } from '../analyse/analyser.js';
import { KNOWLEDGE, type DiagnosisId } from '../analyse/knowledge.js';
import { RULES, type Severities } from '../analyse/rules.js';
import { VERSION } from '../version.js';

export type MetricType = 'counter' | 'gauge';

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: MetricType;
  /** Label names besides `log`. */
  labels: string[];
}

/** What a run adds to its counts: when it ran, how long, whether it could do its job. */
export interface RunFacts {
  /** Seconds since the epoch when the run ended (textfile) or now (live). */
  timestamp: number;
  durationSeconds: number;
  success: boolean;
}

export const FAMILIES = {
  violations: { name: 'webmail_log_violations_total', help: 'Violations reported, by rule and severity (one series per rule that is on).', type: 'counter', labels: ['rule', 'severity'] },
  entries: { name: 'webmail_log_entries_total', help: 'Entries read (entry-start lines, malformed ones included).', type: 'counter', labels: [] },
  lines: { name: 'webmail_log_lines_total', help: 'Input lines read.', type: 'counter', labels: [] },
  pairs: { name: 'webmail_log_refresh_pairs_total', help: 'Refresh pairs (a local and a remote-sync calendar lookup).', type: 'counter', labels: [] },
  lookups: { name: 'webmail_log_refresh_lookups_total', help: 'Refresh lookups, by side (local calendars, remote caldav_calendars).', type: 'counter', labels: ['side'] },
  requestIds: { name: 'webmail_log_request_ids', help: 'Distinct request ids seen.', type: 'gauge', labels: [] },
  diagnosis: { name: 'webmail_log_diagnosis_entries', help: 'Entries of each known error (webmail-log explain <diagnosis> says what to do).', type: 'gauge', labels: ['diagnosis'] },
  lastRun: { name: 'webmail_log_last_run_timestamp_seconds', help: 'When the last run ended (live: the time of the scrape).', type: 'gauge', labels: [] },
  success: { name: 'webmail_log_last_run_success', help: '1 when the last run could read every input, else 0.', type: 'gauge', labels: [] },
  duration: { name: 'webmail_log_run_duration_seconds', help: 'How long the last run took (live: since it started).', type: 'gauge', labels: [] },
  build: { name: 'webmail_log_build_info', help: 'The version of webmail-log, as a label; always 1.', type: 'gauge', labels: ['version'] },
} as const satisfies Record<string, Family>;

export type FamilyKey = keyof typeof FAMILIES;

/** Every diagnosis that can be reported: the set the diagnosis label takes. */
const DIAGNOSES: DiagnosisId[] = KNOWLEDGE.map((k) => k.id);

/** The samples of every family, from the counts of a run; `log` is added to every series. */
export function samples(c: Counts, severities: Severities, run: RunFacts, log: string): Record<FamilyKey, Sample[]> {
  const one = (value: number, labels: Record<string, string> = {}): Sample => ({ labels: { ...labels, log }, value });
  return {
    violations: RULES.filter((r) => severities[r.id] !== 'off').map((r) => one(c.violationsByRule[r.id], { rule: r.id, severity: severities[r.id] })),
    entries: [one(c.entries)],
    lines: [one(c.lines)],
    pairs: [one(c.refreshPairs)],
    lookups: [one(c.refreshLookups.local, { side: 'local' }), one(c.refreshLookups.remote, { side: 'remote' })],
    requestIds: [one(c.requestIds)],
    diagnosis: DIAGNOSES.map((id) => one(c.diagnosisEntries[id] ?? 0, { diagnosis: id })),
    lastRun: [one(run.timestamp)],
    success: [one(run.success ? 1 : 0)],
    duration: [one(run.durationSeconds)],
    build: [one(1, { version: VERSION })],
  };
}

/** A label value as the text format 0.0.4 writes it: `\`, `"` and newline escaped. */
export function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text: `\` and newline escaped. */
function helpText(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** The Prometheus text format 0.0.4 (not OpenMetrics): HELP and TYPE for every family, no timestamps. */
export function exposition(all: Record<FamilyKey, Sample[]>): string {
  const out: string[] = [];
  for (const key of Object.keys(FAMILIES) as FamilyKey[]) {
    const f: Family = FAMILIES[key];
    out.push(`# HELP ${f.name} ${helpText(f.help)}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of all[key]) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${labelValue(v)}"`)
        .join(',');
      out.push(`${f.name}{${labels}} ${s.value}`);
    }
  }
  return out.join('\n') + '\n';
}
