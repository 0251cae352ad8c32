// The packed request ids: every state back exactly as it was, however many come and go.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdState } from '../../src/analyse/aggregates.js';
import { RetiredIds } from '../../src/analyse/retired.js';

// Ids and segments of every kind the packing writes apart: ASCII, Latin-1 (ü), beyond
// it (€), and 128 characters or more (a length of two bytes).
function state(i: number): IdState {
  const s = new IdState(i % 5 === 0 ? `id${i.toString(36)}€` : i % 5 === 1 ? `${i.toString(16).padStart(8, '0')}` : `id${i.toString(36)}ü`);
  s.addSegment(i % 11 === 0 ? `cpsess${'0'.repeat(130)}${i}` : `cpsess${1_000_000_000 + i}`);
  if (i % 3 === 0) s.addSegment('cpsess9999999999');
  s.seen(1_763_700_000 + i, 3600, false);
  s.seen(1_763_700_000 + i * 2 + 60, i % 2 === 0 ? -18000 : 0, i % 2 === 0);
  s.entries = i;
  s.refreshPairs = i >> 1;
  s.diagnosed = i & 0x3ff;
  for (let k = 0; k < i % 7; k++) s.add(1_763_700_000 + k * (50 + (k % 3)), 300);
  return s;
}

describe('RetiredIds', () => {
  it('marks a row plain when its id and the segments it lists stand in JSON as they are', () => {
    const plain = (id: string, segments: string[], selected: string[] | null) => {
      const s = new IdState(id);
      for (const seg of segments) s.addSegment(seg);
      s.selectedSegments = selected;
      const r = new RetiredIds();
      return r.rawAt(r.put(s, 0)).plain;
    };
    expect(plain('3fa9c2d1', ['cpsess0123456789', 'cpsess1'], null)).toBe(true);
    expect(plain('3fa9c2d1', [], null)).toBe(true);
    expect(plain('3fa9"2d1', ['cpsess0123456789'], null)).toBe(false);
    expect(plain('3fa9c2d1', ['cpsess1', 'cps\\ess'], null)).toBe(false);
    expect(plain('3fa9c2d1', ['cps\u007fess'], null)).toBe(false);
    expect(plain('3fa9c2dü', ['cpsess1'], null)).toBe(false);
    // 128 characters or more, packed by their UTF-8 length: plain all the same.
    expect(plain('3fa9c2d1', ['x'.repeat(200)], null)).toBe(true);
    expect(plain('3fa9c2d1', [`${'x'.repeat(200)}"`], null)).toBe(false);
    // With filters the row lists the segments selected, not the others.
    expect(plain('3fa9c2d1', ['cps\tess', 'cpsess1'], ['cpsess1'])).toBe(true);
    expect(plain('3fa9c2d1', ['cpsess1'], ['cps\u0000ess'])).toBe(false);
    expect(plain('3fa9\n2d1', ['cpsess1'], ['cpsess1'])).toBe(false);
  });

  it('gives every packed state back as it was, through many comings and goings', () => {
    const r = new RetiredIds();
    const places = new Map<number, number>();
    // Pack 5,000, take back every other one, pack them again: the table fills with
    // places left GONE, and must neither lose an id nor loop.
    for (let i = 0; i < 5000; i++) places.set(i, r.put(state(i), i));
    for (let round = 0; round < 3; round++) {
      for (let i = round; i < 5000; i += 2) {
        const back = r.take(state(i).id);
        expect(back?.order).toBe(i);
        expect(back?.state.row()).toEqual(state(i).row());
        expect(back?.state.diagnosed).toBe(state(i).diagnosed);
        places.set(i, r.put(back!.state, i));
      }
    }
    expect(r.size).toBe(5000);
    expect(r.take('no such id')).toBeNull();
    for (const [i, at] of places) {
      expect(r.idAt(at)).toBe(state(i).id);
      expect(r.rowAt(at)).toEqual(state(i).row());
    }
  });
});

describe('RetiredIds, a state larger than a block (1 MiB)', () => {
  it('keeps it in a block of its own: the states packed after it come back as they were', () => {
    // A segment of 1.1 million characters (its room is reserved at 3 bytes a character,
    // so its block has room left), ASCII and not, then ordinary states.
    for (const big of ['x'.repeat(1_100_000), 'ü'.repeat(1_100_000)]) {
      const r = new RetiredIds();
      const large = new IdState('large');
      large.addSegment(big);
      large.seen(1_763_700_000, 3600, false);
      const places = [r.put(state(1), 1), r.put(large, 2), r.put(state(3), 3), r.put(state(4), 4)];
      expect(r.rowAt(places[0])).toEqual(state(1).row());
      expect(r.rowAt(places[1])).toEqual(large.row());
      expect(r.rowAt(places[2])).toEqual(state(3).row());
      expect(r.rowAt(places[3])).toEqual(state(4).row());
      expect(r.take(state(4).id)?.state.row()).toEqual(state(4).row());
    }
  });
});

describe('packed numbers', () => {
  // Whole numbers around the places where the packing changes method (a byte, four
  // bytes, 2^31, 2^53), fractions, and the numbers a state can hold that are not finite.
  const whole = fc.oneof(
    fc.integer({ min: 0, max: 300 }),
    fc.integer({ min: (1 << 28) - 300, max: (1 << 28) + 300 }),
    fc.integer({ min: 2 ** 31 - 300, max: 2 ** 31 + 300 }),
    fc.integer({ min: 2 ** 51 - 300, max: 2 ** 51 + 300 }),
    fc.maxSafeNat(),
  );
  // -0 comes back as 0: the same instant or offset.
  const any = fc.oneof(whole, whole.map((n) => -n), fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, 0.5, -(2 ** 60))).map((n) => (n === 0 ? 0 : n));

  const histogram = (s: IdState) => s.gapHistogram().slice(0, s.gapPlaces());

  it('give a gap histogram back as it was: gaps of every length, counts of every size', () => {
    // Gaps from none to years, the byte-long steps of a session's minutes, 512 s and more
    // (a place past 2^31), and one gap seen many times.
    const gap = fc.oneof(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 500, max: 600 }), fc.integer({ min: 0, max: 2 ** 30 }));
    fc.assert(
      fc.property(fc.array(gap, { maxLength: 60 }), fc.integer({ min: 0, max: 3000 }), (gaps, repeats) => {
        const r = new RetiredIds();
        const s = new IdState('3fa9c2d1');
        let at = 1_763_700_000;
        s.add(at, 300);
        for (const g of gaps) s.add((at += g), 300);
        for (let k = 0; k < repeats; k++) s.add((at += 61), 300);
        const before = histogram(s);
        r.put(s, 0);
        const back = r.take('3fa9c2d1')!.state;
        expect(histogram(back)).toEqual(before);
        expect(back.result()).toEqual(s.result());
      }),
    );
  });

  it('give back a histogram whose places are not whole numbers in order, as they were', () => {
    // No tracker fed by a log makes one (its instants are whole seconds): packed as they are.
    for (const places of [[61.5 * 4194304 + 1], [62 * 4194304 + 1, 61 * 4194304 + 2], [2 ** 60]]) {
      const r = new RetiredIds();
      const s = new IdState('3fa9c2d1');
      s.restoreCadence(3, 1_763_700_000, 62, [...places]);
      r.put(s, 0);
      expect(histogram(r.take('3fa9c2d1')!.state)).toEqual(places);
    }
  });

  it('come back as they were packed, in every range', () => {
    fc.assert(
      fc.property(whole, any, any, any, whole, (entries, first, offset, last, pairs) => {
        const r = new RetiredIds();
        const s = new IdState('3fa9c2d1');
        s.entries = entries;
        s.refreshPairs = pairs;
        s.firstInstant = first;
        s.firstOffset = offset;
        s.lastInstant = last;
        r.put(s, entries);
        const back = r.take('3fa9c2d1')!;
        expect(back.order).toBe(entries);
        expect([back.state.entries, back.state.refreshPairs, back.state.firstInstant, back.state.firstOffset]).toEqual([entries, pairs, first, offset]);
        // The last instant is kept as a difference from the first: exact for whole seconds.
        if (Number.isSafeInteger(first) && Number.isSafeInteger(last) && Number.isSafeInteger(last - first)) expect(back.state.lastInstant).toBe(last);
      }),
    );
  });
});
