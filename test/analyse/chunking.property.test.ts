// The same bytes give the same violations however they arrive: whole, in random slices
// (a pipe), or cut at every entry (tail -f). SPEC §2: decisions depend only on what was read.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Side } from '../../src/parse/table.js';
import { check, imap, log, lookup } from '../helpers.js';

const entry = fc.oneof(
  fc.record({ t: fc.integer({ min: 0, max: 200 }), side: fc.constantFrom(Side.Local, Side.Remote), id: fc.constantFrom('aaaaaaaa', 'bbbbbbbb', 'XY') }).map(({ t, side, id }) =>
    lookup(`10:${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`, side === Side.Local ? 'calendars' : 'caldav_calendars', { id }),
  ),
  fc.integer({ min: 0, max: 200 }).map((t) => imap(`10:${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`)),
  fc.constantFrom('  continuation line', '', 'stray text', '[31-Feb-2026 10:00:00 +0100]: bad', '\r'),
);

const logText = fc.array(entry, { maxLength: 40 }).map((lines) => log(...lines));

describe('chunking', () => {
  it('does not change violations or counts', () => {
    fc.assert(
      fc.property(logText, fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 8 }), (text, sizes) => {
        const whole = check(text);
        const sliced = check(text, { chunk: sizes.length > 0 ? sizes : undefined });
        expect(sliced).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps entries = dbErrors + otherEntries + malformedEntries and counts every line', () => {
    fc.assert(
      fc.property(logText, (text) => {
        const { summary: s } = check(text);
        expect(s.dbErrors + s.otherEntries + s.malformedEntries).toBe(s.entries);
        expect(s.lines).toBe(text.split('\n').length - 1);
      }),
      { numRuns: 300 },
    );
  });
});
