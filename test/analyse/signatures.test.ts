// Signature counts: the counter remembers the last two signature objects it saw, and must
// count exactly as by key whatever the order, and whether one signature comes as one
// object or several.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureCounter } from '../../src/analyse/aggregates.js';
import type { DbSignature } from '../../src/parse/entry.js';

function signature(code: string, message: string): DbSignature {
  return { code, message, key: `${code} ${message}`, tableSide: null };
}

describe('SignatureCounter', () => {
  it('counts DB errors by code and message, in any order, however many objects stand for one signature', () => {
    const kinds = [signature('1', 'no such table: calendars'), signature('1', 'no such table: caldav_calendars'), signature('5', 'database is locked'), signature('1', 'no such column: x')];
    // Each draw: which signature, and whether it comes as the shared object or a copy.
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: kinds.length - 1 }), fc.boolean()), { maxLength: 60 }), (draws) => {
        const c = new SignatureCounter();
        const expected = new Map<string, number>();
        for (const [k, copy] of draws) {
          const s = copy ? { ...kinds[k] } : kinds[k];
          c.addDb(s);
          expected.set(s.key, (expected.get(s.key) ?? 0) + 1);
        }
        const got = new Map(c.rows().map((r) => [`${r.code} ${r.message}`, r.count]));
        expect(got).toEqual(expected);
      }),
    );
  });
});
