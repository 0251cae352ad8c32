import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { count } from '../../src/report/count.js';

describe('count', () => {
  it('groups digits as en-US does, around every length where a comma is added', () => {
    for (const v of [0, -0, 7, 999, 1000, 12_345, 999_999, 1_000_000, -1, -1000, -123_456_789, Number.MAX_SAFE_INTEGER]) {
      expect(count(v)).toBe(v.toLocaleString('en-US'));
    }
  });

  it('matches toLocaleString on any whole or fractional number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -2e9, max: 2e9 }), fc.maxSafeInteger(), fc.double({ noNaN: true })), (v) => {
        expect(count(v)).toBe(v.toLocaleString('en-US'));
      }),
    );
  });
});
