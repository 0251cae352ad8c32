import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MadeRow, type RequestIdRow } from '../../src/analyse/aggregates.js';
import { isoAt } from '../../src/parse/calendar.js';
import { jsonText } from '../../src/report/json-text.js';
import { rowText } from '../../src/report/row-text.js';

/** What the report wrote before rows were written by hand: the reference. */
const viaStringify = (r: unknown, indent: boolean) => (indent ? jsonText(r, 2).replace(/\n/g, '\n    ') : jsonText(r));

// Strings with quotes, backslashes, controls, DEL, C1, bidi overrides and astral characters.
const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u007f', '\u0085', '\u202e', '\u2028', '😀'), fc.string({ unit: 'grapheme', maxLength: 1 })) });
const count = fc.oneof(fc.nat(), fc.double({ noNaN: false }));
const row = fc.record({
  id: text,
  sessionSegments: fc.array(text, { maxLength: 3 }),
  entries: count,
  refreshPairs: count,
  first: text,
  last: text,
  refreshCadence: fc.record({
    refreshes: count,
    medianGapSeconds: fc.option(count),
    longestGapSeconds: fc.option(count),
  }),
});

describe('request-id row text', () => {
  it('is what JSON.stringify writes, indented in the list and flat', () => {
    fc.assert(
      fc.property(row, fc.boolean(), (r, indent) => {
        expect(rowText(r as RequestIdRow, indent)).toBe(viaStringify(r, indent));
      }),
    );
  });

  it('is what JSON.stringify writes for a row the analysis made, whose shape it does not check', () => {
    // Instants of any day, at any offset (seconds included) and either sign of zero.
    const stamp = fc.tuple(fc.integer({ min: -1e10, max: 1e10 }), fc.integer({ min: -86399, max: 86399 }), fc.boolean()).map(([t, o, neg]) => isoAt(t, o, neg));
    const made = fc
      .tuple(text, fc.array(text, { maxLength: 3 }), count, count, stamp, stamp, fc.record({ refreshes: count, medianGapSeconds: fc.option(count), longestGapSeconds: fc.option(count) }))
      .map((a) => new MadeRow(...a));
    fc.assert(
      fc.property(made, fc.boolean(), (r, indent) => {
        expect(rowText(r, indent)).toBe(viaStringify(r, indent));
      }),
    );
  });

  it('leaves a row of another shape (a report read back, keys reordered or added) to JSON.stringify', () => {
    const r = { first: 'a', id: 'x', sessionSegments: [], entries: 1, refreshPairs: 0, last: 'b', refreshCadence: { refreshes: 0, medianGapSeconds: null, longestGapSeconds: null }, host: 'h' };
    for (const indent of [true, false]) expect(rowText(r as unknown as RequestIdRow, indent)).toBe(viaStringify(r, indent));
  });
});
