// Entries per time bucket, by kind, and refreshes per bucket, by request id: a chart of
// bursts and gaps. Counts are kept as runs (bucket, count): entries come in time order,
// so a new one mostly lands in the last run's bucket or starts the next run; no hashing
// and no allocation in the hot path. Buckets start at one minute and are merged into
// coarser ones (5 min, 15 min, … a week) whenever there are too many runs, so memory stays
// small on logs of any span; every size divides the next, so a merge is exact. Buckets
// are aligned to the wall clock of the first entry.

import { isoAt } from '../parse/calendar.js';

/** Bucket sizes in seconds; each divides the next. */
export const BUCKET_SIZES = [60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400, 604800];
/** Runs kept, in all, before buckets are merged. */
const MAX_RUNS = 16384;
/** Buckets a chart shows at the most. */
export const CHART_BUCKETS = 48;

/** Counts per bucket as runs of equal buckets, in the order they came. */
export class Runs {
  // Never given new arrays: V8 compiled the analyser for these fields holding the arrays
  // they were made with, and threw its code away when the first merge of a long log
  // stored new ones (`entry`, on *short* 1 GB: a third of the way in).
  readonly buckets: number[] = [];
  readonly counts: number[] = [];

  /** Adds one at `bucket`; returns whether a run was started. */
  add(bucket: number): boolean {
    const last = this.buckets.length - 1;
    if (last >= 0 && this.buckets[last] === bucket) {
      this.counts[last]++;
      return false;
    }
    this.buckets.push(bucket);
    this.counts.push(1);
    return true;
  }

  /** Buckets `ratio` times larger: neighbours that fall together become one run. In place: run `n` is written only once run `n` and those before it are read. */
  coarsen(ratio: number): void {
    const { buckets, counts } = this;
    let n = 0;
    for (let i = 0; i < buckets.length; i++) {
      const b = Math.floor(buckets[i] / ratio);
      if (n > 0 && buckets[n - 1] === b) counts[n - 1] += counts[i];
      else {
        buckets[n] = b;
        counts[n] = counts[i];
        n++;
      }
    }
    buckets.length = n;
    counts.length = n;
  }

  /** Dense counts for `buckets` buckets from `first`, read at `ratio` times the kept size. */
  dense(first: number, buckets: number, ratio: number): number[] {
    const row: number[] = new Array(buckets).fill(0);
    for (let i = 0; i < this.buckets.length; i++) {
      const at = Math.floor(this.buckets[i] / ratio) - first;
      if (at >= 0 && at < buckets) row[at] += this.counts[i];
    }
    return row;
  }
}

export interface TimelineSeries {
  bucketSeconds: number;
  /** Start of the first bucket, at the offset of the stream's first entry. */
  start: string;
  buckets: number;
  /** Entries per bucket, by kind. */
  entries: Record<string, number[]>;
  /** Refreshes per bucket, by request id. */
  refreshes: Record<string, number[]>;
}

export class Timeline {
  /** `maxRuns`: runs kept before buckets are merged (the primer merges them at once, see AnalyseSettings.timelineRuns). */
  constructor(private readonly maxRuns = MAX_RUNS) {}

  private size = BUCKET_SIZES[0];
  private readonly kinds = new Map<string, Runs>();
  private readonly refreshRuns = new Map<string, Runs>();
  private runs = 0;
  private offset = 0;
  private negative = false;
  private started = false;
  private min = Infinity;
  private max = -Infinity;
  /** The kind of the entry before, and its runs: kinds come in runs too. */
  private lastKind = '';
  private lastKindRuns: Runs | null = null;

  private bucket(instant: number, size = this.size): number {
    const v = (instant + this.offset) / size;
    // A 32-bit integer stays a small integer for V8: no boxing.
    return v >= 0 && v < 2147483648 ? v | 0 : Math.floor(v);
  }

  entry(instant: number, offset: number, negative: boolean, kind: string): void {
    if (!this.started) {
      this.started = true;
      this.offset = offset;
      this.negative = negative;
    }
    if (instant < this.min) this.min = instant;
    if (instant > this.max) this.max = instant;
    let runs = kind === this.lastKind ? this.lastKindRuns : this.kinds.get(kind);
    if (runs === undefined || runs === null) this.kinds.set(kind, (runs = new Runs()));
    this.lastKind = kind;
    this.lastKindRuns = runs;
    if (runs.add(this.bucket(instant)) && ++this.runs > this.maxRuns) this.coarsen();
  }

  /** The refresh runs of request id `id`, to hand to `refresh` (kept by the caller, saving a lookup). */
  refreshesOf(id: string): Runs {
    let runs = this.refreshRuns.get(id);
    if (runs === undefined) this.refreshRuns.set(id, (runs = new Runs()));
    return runs;
  }

  /** A refresh at `instant`, counted in `runs` (from refreshesOf). */
  refresh(runs: Runs, instant: number): void {
    if (runs.add(this.bucket(instant)) && ++this.runs > this.maxRuns) this.coarsen();
  }

  private coarsen(): void {
    const next = BUCKET_SIZES[BUCKET_SIZES.indexOf(this.size) + 1];
    if (next === undefined) return;
    const ratio = next / this.size;
    this.runs = 0;
    // Merged in place: callers hold these runs.
    for (const runs of [...this.kinds.values(), ...this.refreshRuns.values()]) {
      runs.coarsen(ratio);
      this.runs += runs.buckets.length;
    }
    this.size = next;
  }

  /** The series for a chart of at most CHART_BUCKETS buckets, refreshes for the ids given (in that order). */
  series(ids: readonly string[]): TimelineSeries | null {
    if (!this.started) return null;
    let size = this.size;
    for (const s of BUCKET_SIZES) {
      if (s < this.size) continue;
      size = s;
      if (this.bucket(this.max, s) - this.bucket(this.min, s) + 1 <= CHART_BUCKETS) break;
    }
    const first = this.bucket(this.min, size);
    const buckets = this.bucket(this.max, size) - first + 1;
    const ratio = size / this.size;
    const kinds = [...this.kinds.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // Object.fromEntries makes own properties even of ids like `__proto__`.
    return {
      bucketSeconds: size,
      start: isoAt(first * size - this.offset, this.offset, this.negative),
      buckets,
      entries: Object.fromEntries(kinds.map((k) => [k, (this.kinds.get(k) as Runs).dense(first, buckets, ratio)])),
      refreshes: Object.fromEntries(ids.map((id) => [id, this.refreshRuns.get(id)?.dense(first, buckets, ratio) ?? new Array(buckets).fill(0)])),
    };
  }
}
