// How regularly each session refreshes its mailbox. The browser asks about once a
// minute; a long gap means the tab was closed, the laptop slept, or requests failed.
// Kept incrementally, in a few numbers and a histogram of gaps per request id, so that
// memory does not grow with the number of refreshes.

import { isoAt } from '../parse/calendar.js';
import { Slot } from './pairing.js';

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

/** A histogram place holds gap × 2^22 + count: one number, exact up to 4 million refreshes of one gap. */
const COUNT_BITS = 4194304;

// A place's parts. Dividing by a power of two is exact; `%` on a place past 2^31 (a gap of
// 512 s or more) is a floating-point remainder, which made the median of a report's
// hundred thousand rows cost several times what these do.
export const gapOf = (place: number): number => Math.floor(place / COUNT_BITS);
const countOf = (place: number): number => place - gapOf(place) * COUNT_BITS;
/** The place of a gap seen `count` times. */
export const placeOf = (gap: number, count: number): number => gap * COUNT_BITS + count;

/**
 * An empty array for a gap histogram, of doubles from the start (V8's elements kinds): a
 * gap of 512 s or more makes a place past 2^31, and an array of small integers then
 * became one of doubles, under another map. The code compiled for the one (refresh, add,
 * median, nthGap) was thrown away at *short*'s first such gap and compiled again for
 * both; every histogram is now of one kind.
 */
export function gapArray(): number[] {
  const a = [0.5];
  a.length = 0;
  return a;
}

const NO_GAPS: readonly number[] = gapArray();

/**
 * One request id's refreshes, in the order they are decided (the order of the log).
 * Gaps are between consecutive refreshes; a refresh stamped earlier than the one before
 * it (a step back in time) makes a gap of 0. The gaps are kept as a histogram of the
 * distinct gap lengths, sorted, one number each (gap and count packed): a session
 * refreshing about once a minute has a few dozen distinct gaps, so a request id costs a
 * few hundred bytes however long it lasts, and a log of a hundred thousand ids fits in a
 * small VM. It is a pairing slot too (see IdState): one object per id, not three.
 */
export class CadenceTracker extends Slot {
  private count = 0;
  private last = 0;
  private longest = -1;
  /**
   * The histogram's places in use are its first `places`; the array is never shortened,
   * so a tracker taken again for a new id (see Analyser) refills it without allocating.
   */
  private histogram: number[] | null = null;
  private places = 0;

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
    this.countGap(gap);
    if (gap > this.longest) this.longest = gap;
    return gap > gapSeconds ? { from, seconds: gap } : null;
  }

  private countGap(gap: number): void {
    const h = (this.histogram ??= gapArray());
    const places = this.places;
    let lo = 0;
    let hi = places;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (gapOf(h[mid]) < gap) lo = mid + 1;
      else hi = mid;
    }
    if (lo < places && gapOf(h[lo]) === gap) {
      if (countOf(h[lo]) < COUNT_BITS - 1) h[lo]++;
    } else {
      // Shifted by hand: splice would make an array of the removed (none) on every call.
      if (places === h.length) h.push(0);
      for (let i = places; i > lo; i--) h[i] = h[i - 1];
      h[lo] = placeOf(gap, 1);
      this.places = places + 1;
    }
  }

  /** Forgets every refresh, keeping the histogram's array for the next id's. */
  protected clearCadence(): void {
    this.count = 0;
    this.last = 0;
    this.longest = -1;
    this.places = 0;
  }

  // What a packed request id keeps (retired.ts): the count, the last refresh and the
  // longest gap (-1: none). Read one by one: an array of the three was made for each of a
  // hundred thousand ids packed (5.5 MB of short's analysing thread).
  get refreshes(): number {
    return this.count;
  }

  get lastRefresh(): number {
    return this.last;
  }

  get longestGap(): number {
    return this.longest;
  }

  /** The gap histogram as packed numbers (see COUNT_BITS): its first gapPlaces() places. */
  gapHistogram(): readonly number[] {
    return this.histogram ?? NO_GAPS;
  }

  gapPlaces(): number {
    return this.places;
  }

  /** Back from its packed form. */
  restoreCadence(count: number, last: number, longest: number, histogram: number[]): void {
    this.count = count;
    this.last = last;
    this.longest = longest;
    this.histogram = histogram.length === 0 ? null : histogram;
    this.places = histogram.length;
  }

  result(): Cadence {
    return cadenceOf(this.count, this.longest, this.histogram ?? NO_GAPS, this.places);
  }
}

/** A cadence from what a tracker keeps: its count, longest gap (-1: none) and histogram (its first `places`). */
export function cadenceOf(count: number, longest: number, histogram: readonly number[], places: number = histogram.length): Cadence {
  return { refreshes: count, medianGapSeconds: median(histogram, places), longestGapSeconds: longest < 0 ? null : longest };
}

/**
 * The median of a packed histogram, sorted by gap (see COUNT_BITS), or of its first
 * `length` places: the mean of the two middle values for an even count; null when it is
 * empty. Read in place, for every row of a report of a hundred thousand ids.
 */
export function median(histogram: ArrayLike<number>, length: number = histogram.length): number | null {
  let total = 0;
  for (let i = 0; i < length; i++) total += countOf(histogram[i]);
  if (total === 0) return null;
  // A count read from a place is a double: `total % 2` was a call of the C library's fmod,
  // once for every id packed.
  return total - 2 * Math.floor(total / 2) === 1 ? nthGap(histogram, length, (total - 1) / 2) : (nthGap(histogram, length, total / 2 - 1) + nthGap(histogram, length, total / 2)) / 2;
}

/** The k-th gap (0-based) of the first `length` places of a packed histogram, in order. Indexed loops: no iterator objects. */
function nthGap(histogram: ArrayLike<number>, length: number, k: number): number {
  let seen = 0;
  for (let i = 0; i < length; i++) {
    seen += countOf(histogram[i]);
    if (seen > k) return gapOf(histogram[i]);
  }
  return gapOf(histogram[length - 1]);
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
