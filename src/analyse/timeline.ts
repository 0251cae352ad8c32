// Entries per time bucket, by kind, for a chart of bursts and gaps. Buckets start at one
// minute and are merged into coarser ones (5 min, 15 min, … a week) whenever there are
// too many, so memory stays small on logs of any span; every size divides the next, so a
// merge is exact. Buckets are aligned to the wall clock of the first entry.

import { isoAt } from '../parse/calendar.js';

/** Bucket sizes in seconds; each divides the next. */
export const BUCKET_SIZES = [60, 300, 900, 1800, 3600, 10800, 21600, 43200, 86400, 604800];
const MAX_KEPT = 4096;
/** Buckets a chart shows at the most. */
export const CHART_BUCKETS = 48;

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
  private size = BUCKET_SIZES[0];
  private readonly counts = new Map<number, Map<string, number>>();
  private offset = 0;
  private negative = false;
  private started = false;
  private min = Infinity;
  private max = -Infinity;

  private bucket(instant: number, size = this.size): number {
    return Math.floor((instant + this.offset) / size);
  }

  entry(instant: number, offset: number, negative: boolean, kind: string): void {
    if (!this.started) {
      this.started = true;
      this.offset = offset;
      this.negative = negative;
    }
    if (instant < this.min) this.min = instant;
    if (instant > this.max) this.max = instant;
    const b = this.bucket(instant);
    let byKind = this.counts.get(b);
    if (byKind === undefined) {
      byKind = new Map();
      this.counts.set(b, byKind);
      if (this.counts.size > MAX_KEPT) this.coarsen();
    }
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }

  private coarsen(): void {
    const next = BUCKET_SIZES[BUCKET_SIZES.indexOf(this.size) + 1];
    if (next === undefined) return;
    const ratio = next / this.size;
    const merged = new Map<number, Map<string, number>>();
    for (const [b, byKind] of this.counts) {
      const nb = Math.floor(b / ratio);
      let into = merged.get(nb);
      if (into === undefined) merged.set(nb, (into = new Map()));
      for (const [k, n] of byKind) into.set(k, (into.get(k) ?? 0) + n);
    }
    this.counts.clear();
    for (const [b, m] of merged) this.counts.set(b, m);
    this.size = next;
  }

  /** The series for a chart of at most CHART_BUCKETS buckets; `refreshes` gives each id's refresh instants. */
  series(refreshes: Map<string, number[]>): TimelineSeries | null {
    if (!this.started) return null;
    let size = this.size;
    for (const s of BUCKET_SIZES) {
      if (s < this.size) continue;
      size = s;
      if (this.bucket(this.max, s) - this.bucket(this.min, s) + 1 <= CHART_BUCKETS) break;
    }
    const first = this.bucket(this.min, size);
    const buckets = this.bucket(this.max, size) - first + 1;
    const entries: Record<string, number[]> = Object.create(null);
    const ratio = size / this.size;
    for (const [b, byKind] of this.counts) {
      const at = Math.floor(b / ratio) - first;
      for (const [kind, n] of byKind) (entries[kind] ??= new Array(buckets).fill(0))[at] += n;
    }
    // Object.fromEntries makes own properties even of ids like `__proto__`.
    const perId = Object.fromEntries(
      [...refreshes].map(([id, instants]) => {
        const row: number[] = new Array(buckets).fill(0);
        for (const t of instants) {
          const at = this.bucket(t, size) - first;
          if (at >= 0 && at < buckets) row[at]++;
        }
        return [id, row];
      }),
    );
    const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      bucketSeconds: size,
      start: isoAt(first * size - this.offset, this.offset, this.negative),
      buckets,
      entries: sorted,
      refreshes: perId,
    };
  }
}
