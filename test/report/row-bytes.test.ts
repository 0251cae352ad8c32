// The request-id list written as bytes from the packed rows must be, character for
// character, the list rowText writes from the rows read back (row-text.test.ts holds
// rowText to JSON.stringify): for plain rows, which it writes itself, and for every other
// kind, which it leaves to rowText.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdState } from '../../src/analyse/aggregates.js';
import { RetiredIds } from '../../src/analyse/retired.js';
import { POOL_WRITE_PIECE, reportText, WRITE_PIECE } from '../../src/report/reporter.js';
import { packedRowsText } from '../../src/report/row-bytes.js';
import { rowText } from '../../src/report/row-text.js';
import { numberForm } from '../../src/report/row-templates.js';

/** The list as listText writes it from rows made as strings: the reference. */
function reference(r: RetiredIds, places: number[], indent: boolean): string {
  if (places.length === 0) return '[]';
  const rows = places.map((p) => rowText(r.rowAt(p), indent));
  return indent ? `[\n    ${rows.join(',\n    ')}\n  ]` : `[${rows.join(',')}]`;
}

// Mostly what a log holds (hex ids, cpsess segments), sometimes what JSON escapes or
// what is not ASCII.
const odd = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u007f', '\u0085', '\u202e', 'ü', '😀'), fc.string({ unit: 'grapheme', maxLength: 1 })) });
const id = fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[0-9a-f]{8}$/) }, { weight: 1, arbitrary: odd });
const segment = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 9_999_999_999 }).map((n) => `cpsess${n}`) }, { weight: 1, arbitrary: odd });
// Whole seconds of any day and, now and then, a fraction or an instant far out.
const instant = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -1e10, max: 4e10 }) }, { weight: 1, arbitrary: fc.double({ min: -1e12, max: 1e12, noNaN: true }) });
const offset = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -50_400, max: 50_400 }).map((n) => n - (n % 900)) }, { weight: 1, arbitrary: fc.integer({ min: -86_399, max: 86_399 }) });
const state = fc
  .record({
    id,
    segments: fc.array(segment, { maxLength: 3 }),
    selected: fc.option(fc.array(segment, { maxLength: 2 }), { freq: 4 }),
    entries: fc.nat(),
    refreshPairs: fc.nat(),
    first: fc.tuple(instant, offset, fc.boolean()),
    later: fc.tuple(fc.nat({ max: 100_000 }), offset, fc.boolean()),
    // Now and then more distinct gaps than the reader's first array holds (64).
    gaps: fc.oneof({ weight: 6, arbitrary: fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 12 }) }, { weight: 1, arbitrary: fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 65, maxLength: 150 }) }),
  })
  .map((a) => {
    const s = new IdState(a.id);
    for (const seg of a.segments) s.addSegment(seg);
    s.selectedSegments = a.selected;
    s.entries = a.entries;
    s.refreshPairs = a.refreshPairs;
    s.seen(a.first[0], a.first[1], a.first[2]);
    s.seen(a.first[0] + a.later[0], a.later[1], a.later[2]);
    let t = a.first[0];
    for (const g of a.gaps) s.add((t += g), 300);
    return s;
  });

function pack(states: IdState[]): { r: RetiredIds; places: number[] } {
  const r = new RetiredIds();
  return { r, places: states.map((s, i) => r.put(s, i)) };
}

describe('request-id rows as bytes', () => {
  it('are the rows rowText writes, indented and flat, whatever the ids, segments, stamps and gaps', () => {
    fc.assert(
      fc.property(fc.array(state, { maxLength: 8 }), fc.boolean(), (states, indent) => {
        const { r, places } = pack(states);
        expect(reportText(packedRowsText({ rows: r, places }, indent))).toBe(reference(r, places, indent));
      }),
    );
  });

  it('come in pieces of about a write, a row larger than a piece whole in one', () => {
    const states = Array.from({ length: 3000 }, (_, i) => {
      const s = new IdState((0x10000000 + i).toString(16));
      // Two rows of 1.1 MB or more, more than the room a piece starts with (two writes of
      // the largest size): one written as bytes, one not ASCII, which rowText writes.
      s.addSegment(i === 1500 ? 'x'.repeat(1_100_000) : i === 2500 ? 'ü'.repeat(1_100_000) : `cpsess${1_000_000_000 + i}`);
      s.seen(1_763_700_000 + i, 3600, false);
      s.entries = i;
      return s;
    });
    const { r, places } = pack(states);
    // A file's writes and a pipe's, larger: the same text either way.
    for (const size of [WRITE_PIECE, POOL_WRITE_PIECE]) {
      // Each piece read as it comes: a lent one is written over two pieces later.
      const pieces = Array.from(packedRowsText({ rows: r, places }, true, size), (p) => reportText([p]));
      expect(pieces.length).toBeGreaterThan(size === WRITE_PIECE ? 10 : 3);
      // None empty; none past two writes but the ones of the large rows; all but the
      // last and those before a large row at least a write.
      for (const p of pieces) expect(p.length).toBeGreaterThan(0);
      expect(pieces.filter((p) => p.length > 2 * size).map((p) => p.length > 1_100_000)).toEqual([true, true]);
      expect(pieces.slice(0, -1).filter((p) => p.length < size).map((p) => p.length)).toHaveLength(2);
      expect(pieces.join('')).toBe(reference(r, places, true));
      // A lent piece stands while the next is made (it is being written meanwhile); the
      // one after the next may be made over it.
      const lent = packedRowsText({ rows: r, places }, true, size);
      let before = lent.next().value as Uint8Array;
      let text = reportText([before]);
      for (let k = 1; k < pieces.length; k++) {
        const next = lent.next().value as Uint8Array;
        // Compared as booleans: a failing diff of pieces of a megabyte is too large to show.
        expect(reportText([before]) === text).toBe(true);
        expect(text === pieces[k - 1]).toBe(true);
        before = next;
        text = reportText([next]);
      }
    }
  });

  it('written from templates, are each their own row: rows alike in lengths but not in values, numbers at each form\'s bounds', () => {
    // Numbers at the edges of the templates' forms (digits, `.5`, too many digits) and
    // stamps out of the ordinary (a year before 1000, a fraction of a second), on ids and
    // segments of the same lengths: each template is used by many rows.
    const counts = [0, 9, 10, 99, 100, 9_999_999, 10_000_000, 123_456_789];
    // The first refresh has no gap before it: [1, 5, 6] is a median of 5.5.
    const gaps = [[], [5], [1, 5, 6], [1, 2, 3, 4, 5], [1, 9_999_999, 10_000_000], [1, 0.5, 1], [1, 7, 8, 1e8], Array.from({ length: 1200 }, (_, k) => 60 + (k % 7))];
    const states = counts.flatMap((n, i) =>
      gaps.map((g, j) => {
        const s = new IdState((0xa0000000 + i * 16 + j).toString(16));
        s.addSegment(`cpsess${1_000_000_000 + i * 97 + j}`);
        s.entries = n;
        s.refreshPairs = counts[(i + j) % counts.length];
        const first = j === 3 ? -40_000_000_000 : j === 5 ? 1_763_700_000.25 : 1_763_700_000 + i * 86_399;
        s.seen(first, 3600 * (j - 3), j % 2 === 1);
        s.seen(first + n, 3600, false);
        let t = first;
        for (const d of g) s.add((t += d), 300);
        return s;
      }),
    );
    const { r, places } = pack(states);
    for (const indent of [true, false]) {
      expect(reportText(packedRowsText({ rows: r, places }, indent))).toBe(reference(r, places, indent));
      // Again, the templates now made.
      expect(reportText(packedRowsText({ rows: r, places: [...places].reverse() }, indent))).toBe(reference(r, [...places].reverse(), indent));
    }
  });

  it('have templates only for the numbers they write as the row would: null, digits, a half', () => {
    expect([null, 0, 7, 10, 9_999_999, 10_000_000, 0.5, 12.5, 12.25, -1, NaN, Infinity].map(numberForm)).toEqual([0, 1, 1, 2, 7, -1, 9, 10, -1, -1, -1, -1]);
  });
});
