// A request id's state taken again for a new id (the analyser keeps packed ids' states
// for new ones): it must be a new state in all but the histogram's array.

import { describe, expect, it } from 'vitest';
import { IdState } from '../../src/analyse/aggregates.js';

/** A state with every field moved from where a new one starts. */
function used(): IdState {
  const s = new IdState('3fa9c2d1');
  s.addSegment('cpsess0123456789');
  s.addSegment('cpsess9876543210');
  s.selectedSegments = ['cpsess0123456789'];
  s.seen(1_763_700_000, 3600, false);
  s.seen(1_763_700_600, -18000, true);
  s.entries = 40;
  s.refreshPairs = 12;
  s.diagnosed = 5;
  s.order = 7;
  s.seenAt = 1_763_700_600;
  s.refreshBuckets = [] as unknown as IdState['refreshBuckets'];
  s.pending = {} as IdState['pending'];
  s.at = 3;
  for (const at of [0, 60, 120, 300, 301, 900]) s.add(1_763_700_000 + at, 300);
  return s;
}

describe('IdState.reuse', () => {
  it('leaves no field of the id it held: every own field is a new state’s', () => {
    const s = used();
    s.reuse('a08ff49b');
    const fresh = new IdState('a08ff49b');
    // Every own field, those added later too; the histogram's array is kept on purpose.
    const fields = Object.keys(fresh).filter((k) => k !== 'histogram');
    expect(fields.length).toBeGreaterThan(15);
    for (const k of fields) expect([k, (s as unknown as Record<string, unknown>)[k]]).toEqual([k, (fresh as unknown as Record<string, unknown>)[k]]);
    expect(s.gapPlaces()).toBe(0);
    expect(s.result()).toEqual(fresh.result());
  });

  it('counts the new id’s refreshes as a new state does, in the kept array', () => {
    const s = used();
    s.reuse('a08ff49b');
    const fresh = new IdState('a08ff49b');
    for (const at of [0, 61, 61, 200, 259]) {
      expect(s.add(1_763_800_000 + at, 100)).toEqual(fresh.add(1_763_800_000 + at, 100));
    }
    expect(s.result()).toEqual(fresh.result());
    expect([s.refreshes, s.lastRefresh, s.longestGap]).toEqual([fresh.refreshes, fresh.lastRefresh, fresh.longestGap]);
    expect(s.gapHistogram().slice(0, s.gapPlaces())).toEqual(fresh.gapHistogram().slice(0, fresh.gapPlaces()));
    expect(s.row()).toEqual(fresh.row());
  });
});
