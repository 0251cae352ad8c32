// The interner's strings: made once per distinct bytes.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner } from '../../src/parse/intern.js';
import { keysOfOneSet } from '../helpers.js';

function counting(): { interner: Interner<string>; made: () => number } {
  let made = 0;
  const interner = new Interner<string>((buf, start, end, start2, end2) => {
    made++;
    return buf.toString('latin1', start, end) + '|' + buf.toString('latin1', start2, end2);
  });
  return { interner, made: () => made };
}

/** Asks `interner` for each key in turn; returns how many values it made. */
function ask(interner: Interner<string>, made: () => number, keys: string[]): number {
  const before = made();
  for (const key of keys) expect(interner.get(Buffer.from(key, 'latin1'), 0, key.length)).toBe(`${key}|`);
  return made() - before;
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
    // Keys of up to 120 bytes cross the 16 read as words and the 52 a slot holds; a small
    // alphabet makes repeats. NUL is what a short key's words are padded with, and 0xff
    // sets a word's sign bit.
    const key = fc.string({ unit: fc.constantFrom('a', 'b', '0', '\u0000', '\u00ff'), maxLength: 120 });
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

  it('tells short keys apart by every byte and by their length, NULs at the end included', () => {
    const { interner, made } = counting();
    const keys: string[] = [];
    for (let len = 0; len <= 20; len++) {
      const base = 'x'.repeat(len);
      keys.push(base);
      // The same length, one byte other in each place; and the key with NULs after it.
      for (let i = 0; i < len; i++) keys.push(`${base.slice(0, i)}\u0000${base.slice(i + 1)}`);
      keys.push(`${base}\u0000`, `${base}\u0000\u0000\u0000\u0000`);
    }
    const distinct = [...new Set(keys)];
    expect(ask(interner, made, distinct)).toBe(distinct.length);
    // Asked again, each finds its own (the few a full set pushed out are made again, and right).
    ask(interner, made, distinct);
  });

  it('keeps two keys of one set both: taken in turns, neither is made again', () => {
    // Two live sessions whose ids share a set: with one slot a key, each evicted the other.
    const { interner, made } = counting();
    const [a, b] = keysOfOneSet([8, 8]);
    expect(ask(interner, made, [a, b])).toBe(2);
    expect(ask(interner, made, [a, b, a, b, b, a])).toBe(0);
  });

  it('gives a third key of a set the slot used less recently', () => {
    const { interner, made } = counting();
    const [a, b, c] = keysOfOneSet([8, 8, 8]);
    expect(ask(interner, made, [a, b, a, c])).toBe(3);
    // b was used less recently than a: c took its slot.
    expect(ask(interner, made, [a, c])).toBe(0);
    expect(ask(interner, made, [b])).toBe(1);
  });

  it('tells long keys from short ones that took their slots since', () => {
    const { interner, made } = counting();
    const keys = keysOfOneSet([80, 8, 80]);
    // Three keys taken in turns through two slots: each finds its slot taken, and is made afresh.
    for (let round = 0; round < 3; round++) expect(ask(interner, made, keys)).toBe(3);
  });
});
