// `--format prometheus[=FILE]`: the metrics of one run in the Prometheus text format 0.0.4,
// for node_exporter's textfile collector (--collector.textfile.directory). Written
// atomically (a temporary file beside it, then a rename), so a scrape never reads half.

import type { Counts, Summary } from '../analyse/analyser.js';
import type { DiagnosisId } from '../analyse/knowledge.js';
import { exposition, samples } from './metrics.js';
import type { Reporter } from './reporter.js';

/** The counts of a finished run. */
export function countsOf(s: Summary): Counts {
  const diagnosisEntries: Partial<Record<DiagnosisId, number>> = {};
  for (const d of s.diagnosis) diagnosisEntries[d.id] = d.entries;
  return {
    lines: s.lines,
    entries: s.entries,
    refreshPairs: s.refreshPairs,
    refreshLookups: s.refreshLookups,
    requestIds: s.requestIds.length,
    violationsByRule: s.violationsByRule,
    diagnosisEntries,
  };
}

export const prometheusReporter: Reporter = {
  description: "Prometheus text format, for node_exporter's textfile collector (written atomically)",
  atomic: true,
  end(ctx) {
    if (ctx.fleet === undefined) return exposition(samples(countsOf(ctx.summary), ctx.severities, ctx.run, ctx.logName));
    // A fleet: each host's series, its log label the host's name.
    const per = ctx.fleet.map((h) => samples(h.counts, ctx.severities, ctx.run, h.host));
    const all = Object.fromEntries(Object.keys(per[0] ?? {}).map((k) => [k, per.flatMap((p) => p[k as keyof typeof p])])) as ReturnType<typeof samples>;
    return per.length === 0 ? '' : exposition(all);
  },
};
