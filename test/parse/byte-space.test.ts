import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSpace } from '../../src/parse/byte-space.js';

describe('ByteSpace', () => {
  it('compares two ranges of its memory as Buffer#equals does, at any offsets and lengths', () => {
    const space = ByteSpace.make(4096)!;
    expect(space).not.toBeNull();
    const one = space.take(1024)!;
    const other = space.take(1024)!;
    const base = space.offsetOf(one);
    const otherBase = space.offsetOf(other);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 80 }),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 900 }),
        // A byte changed (or none: -1), anywhere: in a 16-byte step, the 8-byte one or the last bytes.
        fc.integer({ min: -1, max: 79 }),
        (bytes, x, y, changed) => {
          one.set(bytes, x);
          other.set(bytes, y);
          if (changed >= 0 && changed < bytes.length) other[y + changed] ^= 1 << (changed % 8);
          const want = one.subarray(x, x + bytes.length).equals(other.subarray(y, y + bytes.length));
          expect(space.same(base + x, otherBase + y, bytes.length)).toBe(want);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('copies a range of its memory to another as Buffer#copy does, overlapping or not', () => {
    const space = ByteSpace.make(4096)!;
    const piece = space.take(1024)!;
    const base = space.offsetOf(piece);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1024, maxLength: 1024 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 24 }),
        (bytes, from, to, n) => {
          piece.set(bytes);
          const want = Buffer.from(bytes);
          want.copy(want, to, from, from + n);
          space.copy(base + to, base + from, n);
          expect(Buffer.compare(piece, want)).toBe(0);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('hands out pieces that do not overlap, 8-aligned, and none past its end', () => {
    const space = ByteSpace.make(1 << 16)!;
    const a = space.take(10)!;
    const b = space.take(100)!;
    expect(space.offsetOf(a)).toBe(0);
    expect(space.offsetOf(b)).toBe(16);
    expect(space.take(1 << 16)).toBeNull();
    expect(space.take((1 << 16) - 120)).not.toBeNull();
    expect(space.take(1)).toBeNull();
  });

  it('says a buffer outside its memory has no offset there', () => {
    const space = ByteSpace.make(1024)!;
    expect(space.offsetOf(Buffer.alloc(16))).toBe(-1);
    expect(space.offsetOf(ByteSpace.make(1024)!.take(16)!)).toBe(-1);
  });
});
