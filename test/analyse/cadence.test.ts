import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CadenceTracker, median } from '../../src/analyse/cadence.js';
import { NOTES_KEPT } from '../../src/analyse/analyser.js';
import { check, log, lookup, pair, nodeScript } from '../helpers.js';

function clock(minutes: number): string {
  return `${String(10 + Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:07`;
}

describe('cadence', () => {
  it('takes the median of the gaps, the mean of the two middle values for an even count', () => {
    const medianOf = (...instants: number[]) => {
      const t = new CadenceTracker();
      for (const i of instants) t.add(i, 300);
      return t.result().medianGapSeconds;
    };
    expect(medianOf(0, 60, 120, 180)).toBe(60);
    expect(medianOf(0, 60, 122)).toBe(61);
    expect(medianOf(0, 900, 960, 961, 1021)).toBe(60);
    expect(medianOf(0, 1, 901, 961, 1021)).toBe(60);
    // Gaps of an hour and a day: histogram places past 2^31, counts above 1.
    expect(medianOf(0, 3600, 7200, 7260)).toBe(3600);
    expect(medianOf(0, 86400, 172800, 259200, 259260)).toBe(86400);
    expect(medianOf(0)).toBeNull();
    expect(median([])).toBeNull();
  });

  it('gives the median, longest gap and count a sort of the gaps gives, for gaps short, long and back in time', () => {
    // Whole seconds, as a log's stamps are: gaps around 511-512 s (where a histogram place
    // passes 2^31), of minutes, of days, and steps back in time.
    const gap = fc.oneof(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 500, max: 520 }), fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: -300, max: -1 }));
    fc.assert(
      fc.property(fc.array(gap, { minLength: 1, maxLength: 40 }), (steps) => {
        const t = new CadenceTracker();
        const gaps: number[] = [];
        let at = 1_763_700_000;
        let last = at;
        t.add(at, 300);
        for (const step of steps) {
          at += step;
          t.add(at, 300);
          gaps.push(at > last ? at - last : 0);
          if (at > last) last = at;
        }
        const sorted = [...gaps].sort((a, b) => a - b);
        const n = sorted.length;
        const expected = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        expect(t.result()).toEqual({ refreshes: steps.length + 1, medianGapSeconds: expected, longestGapSeconds: Math.max(...gaps) });
      }),
    );
  });

  it('tracks gaps between refreshes and reports the ones over the limit', () => {
    const t = new CadenceTracker();
    expect(t.add(0, 300)).toBeNull();
    expect(t.add(60, 300)).toBeNull();
    expect(t.add(1000, 300)).toEqual({ from: 60, seconds: 940 });
    expect(t.add(990, 300)).toBeNull(); // a step back: a gap of 0
    // Gaps 60, 940 and 0: the median is 60.
    expect(t.result()).toEqual({ refreshes: 4, medianGapSeconds: 60, longestGapSeconds: 940 });
  });

  it('gives each request id its cadence and notes long gaps, which are no violations', () => {
    const c = check(log(pair(clock(0)), pair(clock(1)), pair(clock(2)), pair(clock(20)), pair(clock(21))));
    expect(c.summary.requestIds.at(0)!.refreshCadence).toEqual({ refreshes: 5, medianGapSeconds: 60, longestGapSeconds: 1080 });
    expect(c.summary.notes).toEqual([
      {
        type: 'refresh-gap',
        requestId: '3fa9c2d1',
        from: '2026-11-21T10:02:07+01:00',
        to: '2026-11-21T10:20:07+01:00',
        seconds: 1080,
        message: 'no refresh for 18 min',
      },
    ]);
    expect(c.summary.violations).toEqual({ error: 0, warning: 0 });
    expect(check(log(pair(clock(0)), pair(clock(20))), { gapSeconds: 1800 }).summary.notes).toEqual([]);
  });

  it('counts a lone lookup as a refresh too', () => {
    const c = check(log(pair(clock(0)), lookup(clock(1), 'calendars'), pair(clock(2))));
    expect(c.summary.requestIds.at(0)!.refreshCadence.refreshes).toBe(3);
  });

  it(`keeps the first ${NOTES_KEPT} notes and counts the rest`, () => {
    // A refresh every two minutes, and a limit of one: every gap is noted.
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const stamp = (i: number) => {
      const d = new Date(Date.UTC(2026, 10, 1) + i * 120_000);
      const p2 = (n: number) => String(n).padStart(2, '0');
      return `${p2(d.getUTCDate())}-${months[d.getUTCMonth()]}-${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:00 +0000`;
    };
    const c = check(log(...Array.from({ length: NOTES_KEPT + 6 }, (_, i) => pair(stamp(i)))), { gapSeconds: 60 });
    expect(c.summary.notes).toHaveLength(NOTES_KEPT);
    expect(c.summary.notesTotal).toBe(NOTES_KEPT + 5);
  });
});

describe('gap histograms, to V8', () => {
  it('are arrays of doubles whatever their gaps: made by a tracker, empty, or unpacked', () => {
    // Places below 2^31 are small integers to V8, and an array of them takes another map
    // than one of doubles (a gap of 512 s or more): code compiled for the one was thrown
    // away for the other. Asked of V8 itself, in a process that may (natives syntax).
    const dist = fileURLToPath(new URL('../../dist/analyse/', import.meta.url));
    const script = `
      const { IdState } = await import(${JSON.stringify(join(dist, 'aggregates.js'))});
      const { RetiredIds } = await import(${JSON.stringify(join(dist, 'retired.js'))});
      const short = new IdState('3fa9c2d1');
      for (const at of [0, 60, 121, 180]) short.add(1763700000 + at, 300);
      const none = new IdState('a08ff49b');
      const r = new RetiredIds();
      r.put(short, 0);
      const back = r.take('3fa9c2d1').state;
      console.log(JSON.stringify([%HasDoubleElements(short.gapHistogram()), %HasDoubleElements(none.gapHistogram()), %HasDoubleElements(back.gapHistogram())]));
    `;
    const r = nodeScript('gaps', script, ['--allow-natives-syntax'])();
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([true, true, true]);
  });
});
