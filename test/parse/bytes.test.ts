import { describe, expect, it } from 'vitest';
import { copyBytes } from '../../src/parse/bytes.js';

describe('copyBytes', () => {
  // A Buffer from Node's pool: a view at an offset into a larger ArrayBuffer, as the
  // assembler's and a worker's blocks are.
  const src = Buffer.from('..0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ..'.repeat(3), 'latin1').subarray(2);

  for (const [start, end] of [
    [0, 0],
    [3, 11],
    [0, 32],
    [5, 38],
    [10, 150],
  ]) {
    it(`copies bytes [${start}, ${end}) where Buffer#copy puts them`, () => {
      const want = Buffer.alloc(200, 0x2e);
      const got = Buffer.alloc(200, 0x2e);
      src.copy(want, 7, start, end);
      copyBytes(src, start, end, got, 7);
      expect(got.toString('latin1')).toBe(want.toString('latin1'));
    });
  }
});
