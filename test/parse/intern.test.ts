// The interner's strings: made once per distinct bytes, and `lasting` (internalized, for
// the old generation) without a change to what they say, whatever they say.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner, lasting } from '../../src/parse/intern.js';

describe('lasting', () => {
  it('gives back the same text, names an object keeps apart included', () => {
    for (const s of ['a08ff49b', 'cpsess0123456789', '', '__proto__', 'constructor', '0', '42', '007', '4294967295', '-1', '1e3', 'é€', '\u0000x']) {
      expect(lasting(s)).toBe(s);
    }
  });

  it('gives back any string as it is', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => lasting(s) === s));
  });
});

describe('Interner', () => {
  it('makes one value per distinct key and gives it back', () => {
    let made = 0;
    const interner = new Interner<string>((buf, start, end) => {
      made++;
      return lasting(buf.toString('utf8', start, end));
    });
    const buf = Buffer.from('a08ff49b a08ff49b 3fa9c2d1');
    const first = interner.get(buf, 0, 8);
    expect(interner.get(buf, 9, 17)).toBe(first);
    expect(interner.get(buf, 18, 26)).toBe('3fa9c2d1');
    expect(made).toBe(2);
  });
});
