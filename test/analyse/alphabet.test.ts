// request-id-format's alphabets, checked by tables: they accept what the SPEC's patterns
// (the oracle's RegExps) accept, and nothing else.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHABETS, ALPHABET_NAMES } from '../../src/analyse/alphabet.js';
import { ALPHABETS as PATTERNS } from '../oracle/model.js';

describe.each(ALPHABET_NAMES)('the %s alphabet', (name) => {
  it('accepts an id exactly when its pattern does', () => {
    // 7 to 9 characters of the widest alphabet, one of them perhaps swapped for one at or
    // past an alphabet's edge; and any text.
    const widest = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,-'];
    const own = widest.filter((c) => PATTERNS[name].test(c.repeat(8)));
    const edge = [...'0199:/`aafgguvvwzAZ[@,-.+ÿé€\u0000'];
    const near = fc
      .tuple(fc.array(fc.constantFrom(...own), { minLength: 7, maxLength: 9 }), fc.nat(8), fc.option(fc.constantFrom(...edge)))
      .map(([cs, at, c]) => (c === null ? cs : cs.map((x, i) => (i === at ? c : x))).join(''));
    const id = fc.oneof(near, fc.array(fc.constantFrom(...widest), { minLength: 8, maxLength: 8 }).map((cs) => cs.join('')), fc.string({ maxLength: 10 }));
    fc.assert(
      fc.property(id, (s) => {
        expect(ALPHABETS[name].accepts(s)).toBe(PATTERNS[name].test(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts its own characters and refuses others', () => {
    const own = { hex: '3fa9c2d1', php5: 'n2ovkoj3', php6: 'aZ,-09zA' }[name];
    expect(ALPHABETS[name].accepts(own)).toBe(true);
    expect(ALPHABETS[name].accepts(own.slice(1))).toBe(false);
    expect(ALPHABETS[name].accepts(`${own}0`)).toBe(false);
    expect(ALPHABETS[name].accepts(`${own.slice(1)}é`)).toBe(false);
  });
});
