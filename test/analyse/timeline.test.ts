import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Runs, Timeline } from '../../src/analyse/timeline.js';
import { check, imap, log, pair } from '../helpers.js';

describe('Runs', () => {
  it('counts runs of equal buckets, and merges them when buckets grow', () => {
    const r = new Runs();
    for (const b of [10, 10, 11, 14, 14, 14, 9]) r.add(b);
    expect([r.buckets, r.counts]).toEqual([
      [10, 11, 14, 9],
      [2, 1, 3, 1],
    ]);
    r.coarsen(5);
    expect([r.buckets, r.counts]).toEqual([
      [2, 1],
      [6, 1],
    ]);
    expect(r.dense(1, 3, 1)).toEqual([1, 6, 0]);
  });

  it('merges in place, into the arrays it was made with, as a merge into new ones would', () => {
    // The reference: each run's bucket divided, neighbours that fall together summed.
    const merged = (buckets: number[], counts: number[], ratio: number) => {
      const out: [number[], number[]] = [[], []];
      buckets.forEach((b, i) => {
        const c = Math.floor(b / ratio);
        if (out[0].at(-1) === c) out[1][out[1].length - 1] += counts[i];
        else out[0].push(c), out[1].push(counts[i]);
      });
      return out;
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 400 }), { maxLength: 60 }), fc.constantFrom(2, 3, 5, 12, 1000), (adds, ratio) => {
        const r = new Runs();
        for (const b of adds) r.add(b);
        const [buckets, counts] = [r.buckets, r.counts];
        const expected = merged([...buckets], [...counts], ratio);
        r.coarsen(ratio);
        expect([r.buckets, r.counts]).toEqual(expected);
        expect(r.buckets).toBe(buckets);
        expect(r.counts).toBe(counts);
      }),
      { numRuns: 500 },
    );
  });
});

describe('Timeline', () => {
  const t0 = Date.parse('2026-11-21T09:00:00Z') / 1000;

  it('charts entries by kind in buckets chosen from the span, aligned to the first offset', () => {
    const tl = new Timeline();
    for (let i = 0; i < 30; i++) tl.entry(t0 + i * 60, 3600, false, i % 3 === 0 ? 'IMAP' : 'DB');
    const s = tl.series([])!;
    expect(s).toMatchObject({ bucketSeconds: 60, start: '2026-11-21T10:00:00+01:00', buckets: 30 });
    expect(s.entries.DB.reduce((a, b) => a + b)).toBe(20);
    expect(s.entries.IMAP.slice(0, 4)).toEqual([1, 0, 0, 1]);
  });

  it('chooses coarser buckets for a longer span, and merges as it goes', () => {
    const tl = new Timeline();
    for (let i = 0; i < 40_000; i++) tl.entry(t0 + i * 60, 0, false, 'DB');
    const s = tl.series([])!;
    expect(s.buckets).toBeLessThanOrEqual(48);
    expect(s.bucketSeconds).toBe(86400);
    expect(s.entries.DB.reduce((a, b) => a + b)).toBe(40_000);
  });

  it('merges its buckets once it holds more runs than it is given (the primer gives it a few)', () => {
    const [eager, late] = [new Timeline(4), new Timeline()];
    for (const tl of [eager, late]) {
      const runs = tl.refreshesOf('a');
      for (let i = 0; i < 3_000; i++) {
        const at = t0 + i * 97;
        tl.entry(at, 3600, false, i % 7 === 0 ? 'IMAP' : 'DB');
        if (i % 3 === 0) tl.refresh(runs, at);
      }
    }
    const [e, l] = [eager.series(['a'])!, late.series(['a'])!];
    // The same entries, in buckets a week wide: every size was reached on the way.
    expect([e.bucketSeconds, l.bucketSeconds]).toEqual([604800, 10800]);
    const total = (row: number[]) => row.reduce((a, b) => a + b, 0);
    for (const s of [e, l]) expect([total(s.entries.DB), total(s.entries.IMAP), total(s.refreshes.a)]).toEqual([2571, 429, 1000]);
  });

  it('gives each request id a row of refreshes over the same buckets', () => {
    const tl = new Timeline();
    tl.entry(t0, 0, false, 'DB');
    tl.entry(t0 + 600, 0, false, 'DB');
    const runs = tl.refreshesOf('a');
    tl.refresh(runs, t0);
    tl.refresh(runs, t0 + 60);
    tl.refresh(runs, t0 + 600);
    const s = tl.series(['a', 'b'])!;
    expect(s.refreshes.a).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(s.refreshes.b).toEqual(new Array(11).fill(0));
    expect(Object.keys(s.refreshes)).toEqual(['a', 'b']);
  });

  it('keeps an id called __proto__ as a row of its own', () => {
    const c = check(log(pair('10:00:00', { id: '__proto__' })));
    expect(Object.keys(c.summary.timeline!.refreshes)).toEqual(['__proto__']);
    expect(JSON.parse(JSON.stringify(c.summary.timeline)).refreshes.__proto__).toEqual([1]);
  });

  it('is null for a log without entries, and covers only selected ones', () => {
    expect(check('').summary.timeline).toBeNull();
    expect(check(log(imap('10:00:00'), imap('10:05:00'))).summary.timeline).toMatchObject({ bucketSeconds: 60, buckets: 6 });
  });
});
