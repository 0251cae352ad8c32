// How regularly each session refreshes its mailbox. The browser asks about once a
// minute; a long gap means the tab was closed, the laptop slept, or requests failed.
// Kept incrementally, in a few numbers and a histogram of gaps per request id, so that
// memory does not grow with the number of refreshes.

import { isoAt } from '../parse/calendar.js';

export interface Cadence {
  refreshes: number;
  /** Null with fewer than two refreshes. */
  medianGapSeconds: number | null;
  longestGapSeconds: number | null;
}

export interface GapNote {
  type: 'refresh-gap';
  requestId: string;
  from: string;
  to: string;
  seconds: number;
  message: string;
}

/**
 * One request id's refreshes, in the order they are decided (the order of the log).
 * Gaps are between consecutive refreshes; a refresh stamped earlier than the one before
 * it (a step back in time) makes a gap of 0.
 */
/** Gaps up to this many seconds are counted in an array; longer ones (rare) in a map. */
const SHORT_GAPS = 600;

export class CadenceTracker {
  private count = 0;
  private last = 0;
  private longest: number | null = null;
  /** How many gaps of each length in seconds: short ones by index, long ones by key. */
  private short: Uint32Array | null = null;
  private readonly long = new Map<number, number>();

  /** Adds a refresh; returns the gap before it when that is longer than `gapSeconds`. */
  add(instant: number, gapSeconds: number): { from: number; seconds: number } | null {
    this.count++;
    if (this.count === 1) {
      this.last = instant;
      return null;
    }
    const gap = instant > this.last ? instant - this.last : 0;
    const from = this.last;
    if (instant > this.last) this.last = instant;
    if (gap <= SHORT_GAPS) (this.short ??= new Uint32Array(SHORT_GAPS + 1))[gap]++;
    else this.long.set(gap, (this.long.get(gap) ?? 0) + 1);
    if (this.longest === null || gap > this.longest) this.longest = gap;
    return gap > gapSeconds ? { from, seconds: gap } : null;
  }

  result(): Cadence {
    const all = new Map(this.long);
    for (let gap = 0; this.short !== null && gap <= SHORT_GAPS; gap++) if (this.short[gap] > 0) all.set(gap, this.short[gap]);
    return { refreshes: this.count, medianGapSeconds: median(all), longestGapSeconds: this.longest };
  }
}

/** The median of a histogram (the mean of the two middle values for an even count). */
export function median(histogram: Map<number, number>): number | null {
  let total = 0;
  for (const n of histogram.values()) total += n;
  if (total === 0) return null;
  const sorted = [...histogram.entries()].sort((a, b) => a[0] - b[0]);
  const nth = (k: number) => {
    let seen = 0;
    for (const [value, n] of sorted) {
      seen += n;
      if (seen > k) return value;
    }
    return sorted[sorted.length - 1][0];
  };
  return total % 2 === 1 ? nth((total - 1) / 2) : (nth(total / 2 - 1) + nth(total / 2)) / 2;
}

export function gapNote(requestId: string, from: number, seconds: number, offset: number, negative: boolean, describe: (s: number) => string): GapNote {
  return {
    type: 'refresh-gap',
    requestId,
    from: isoAt(from, offset, negative),
    to: isoAt(from + seconds, offset, negative),
    seconds,
    message: `no refresh for ${describe(seconds)}`,
  };
}
