// The interner's strings: made once per distinct bytes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner } from '../../src/parse/intern.js';

function counting(): { interner: Interner<string>; made: () => number } {
  let made = 0;
  const interner = new Interner<string>((buf, start, end, start2, end2) => {
    made++;
    return buf.toString('latin1', start, end) + '|' + buf.toString('latin1', start2, end2);
  });
  return { interner, made: () => made };
}

/** A key whose slot is `slot`, of `length` bytes (the slot is found by asking). */
function keyInSlot(interner: Interner<string>, slot: number, length: number, from: number): string {
  for (let n = from; ; n++) {
    const key = n.toString(36).padStart(length, 'k');
    const buf = Buffer.from(key, 'latin1');
    interner.get(buf, 0, buf.length);
    if (interner.slot === slot) return key;
  }
}

describe('Interner', () => {
  it('makes one value per distinct key and gives it back', () => {
    let made = 0;
    const interner = new Interner<string>((buf, start, end) => {
      made++;
      return buf.toString('utf8', start, end);
    });
    const buf = Buffer.from('a08ff49b a08ff49b 3fa9c2d1');
    const first = interner.get(buf, 0, 8);
    expect(interner.get(buf, 9, 17)).toBe(first);
    expect(interner.get(buf, 18, 26)).toBe('3fa9c2d1');
    expect(made).toBe(2);
  });

  it('gives each key its own value, short or long, one part or two, whatever shares its slot', () => {
    // Keys of up to 120 bytes cross the 52 a slot holds; a small alphabet makes repeats.
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '0'), maxLength: 120 });
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.option(key, { nil: undefined })), { maxLength: 60 }), (keys) => {
        const { interner, made } = counting();
        for (const [a, b] of keys) {
          const buf = Buffer.from(`${a}${b ?? ''}`, 'latin1');
          const get = () => (b === undefined ? interner.get(buf, 0, a.length) : interner.get2(buf, 0, a.length, a.length, buf.length));
          const value = get();
          expect(value).toBe(`${a}|${b ?? ''}`);
          // Asked again at once, the stored value: not made again.
          const before = made();
          expect(get()).toBe(value);
          expect(made()).toBe(before);
        }
      }),
    );
  });

  it('tells a long key from a short one that took its slot since', () => {
    const { interner, made } = counting();
    const long = keyInSlot(interner, 7, 80, 0);
    const short = keyInSlot(interner, 7, 8, 0);
    const longBuf = Buffer.from(long, 'latin1');
    const shortBuf = Buffer.from(short, 'latin1');
    for (let round = 0; round < 3; round++) {
      expect(interner.get(longBuf, 0, longBuf.length)).toBe(`${long}|`);
      expect(interner.get(shortBuf, 0, shortBuf.length)).toBe(`${short}|`);
    }
    // Each replaced the other in the one slot: made afresh every time.
    const before = made();
    interner.get(longBuf, 0, longBuf.length);
    expect(made()).toBe(before + 1);
  });
});
