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

  it('packing idle request ids away and back changes nothing (many ids, filters or not)', () => {
    const t = (n: number) => `${String(10 + Math.floor(n / 3600)).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
    const many = fc
      .array(
        fc.record({ gap: fc.integer({ min: 0, max: 90 }), id: fc.integer({ min: 0, max: 260 }), what: fc.integer({ min: 0, max: 5 }) }),
        { minLength: 150, maxLength: 600 },
      )
      .map((steps) => {
        let now = 0;
        const lines: string[] = [];
        for (const s of steps) {
          now += s.gap;
          const id = s.id === 0 ? 'NOT-HEX!' : s.id.toString(16).padStart(8, '0');
          const segment = `cpsess${String(1_000_000_000 + (s.id % 7))}`;
          if (s.what <= 2) lines.push(lookup(t(now), 'calendars', { id, segment }), lookup(t(now), 'caldav_calendars', { id, segment }));
          else if (s.what === 3) lines.push(lookup(t(now), 'calendars', { id, segment }));
          else if (s.what === 4) lines.push(imap(t(now), { id, segment }).replace('IMAP Error: Login failed', 'IMAP Error: Login failed for u against h from 192.0.2.1. x'));
          else lines.push(`[21-Nov-2026 ${t(now)} +0100]: <${id}> DB Error: [5] database is locked (SQL Query: x) in f on line 1 (GET /${segment}/x/index.php)`);
        }
        return log(...lines);
      });
    const eager = { afterSeconds: 0, keep: 0, every: 1 };
    fc.assert(
      fc.property(many, fc.boolean(), (text, filtered) => {
        const selection = filtered ? { since: null, until: null, requestIds: null, segments: new Set(['cpsess1000000001', 'cpsess1000000003']) } : null;
        const plain = check(text, { selection });
        const packed = check(text, { selection, retire: eager });
        expect(JSON.stringify([...packed.summary.requestIds])).toBe(JSON.stringify([...plain.summary.requestIds]));
        expect(packed.summary.diagnosis).toEqual(plain.summary.diagnosis);
        expect(packed.summary.timeline).toEqual(plain.summary.timeline);
        expect(packed.violations).toEqual(plain.violations);
        expect({ ...packed.summary, requestIds: null }).toEqual({ ...plain.summary, requestIds: null });
      }),
      { numRuns: 60 },
    );
  });
});
