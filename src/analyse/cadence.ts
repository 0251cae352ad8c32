// How regularly each session refreshes its mailbox. The browser asks about once a
// minute; a long gap means the tab was closed, the laptop slept, or requests failed.

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

/** Cadence of one id's refresh instants, and its gaps longer than `gapSeconds`. */
export function cadence(id: string, instants: number[], offset: number, negative: boolean, gapSeconds: number, describe: (s: number) => string): { cadence: Cadence; notes: GapNote[] } {
  const times = [...instants].sort((a, b) => a - b);
  const gaps: number[] = [];
  const notes: GapNote[] = [];
  for (let i = 1; i < times.length; i++) {
    const gap = times[i] - times[i - 1];
    gaps.push(gap);
    if (gap > gapSeconds) {
      notes.push({
        type: 'refresh-gap',
        requestId: id,
        from: isoAt(times[i - 1], offset, negative),
        to: isoAt(times[i], offset, negative),
        seconds: gap,
        message: `no refresh for ${describe(gap)}`,
      });
    }
  }
  gaps.sort((a, b) => a - b);
  const median = gaps.length === 0 ? null : gaps.length % 2 === 1 ? gaps[(gaps.length - 1) / 2] : (gaps[gaps.length / 2 - 1] + gaps[gaps.length / 2]) / 2;
  return {
    cadence: { refreshes: times.length, medianGapSeconds: median, longestGapSeconds: gaps.length === 0 ? null : gaps[gaps.length - 1] },
    notes,
  };
}
