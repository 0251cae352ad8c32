// The interner's strings: made once per distinct bytes.

import { describe, expect, it } from 'vitest';
import { Interner } from '../../src/parse/intern.js';

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
});
