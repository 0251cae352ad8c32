import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { civilFromSeconds, daysFromCivil, daysInMonth, isLeapYear, isoAt, isoInto, monthNumber } from '../../src/parse/calendar.js';
import { nodeScript } from '../helpers.js';

describe('calendar', () => {
  it('knows leap years by the Gregorian rule', () => {
    expect([2024, 2000, 2400, 0].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([2026, 1900, 2100, 2023].map(isLeapYear)).toEqual([false, false, false, false]);
  });

  it('gives the days of each month', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2026, 2)).toBe(28);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2026, 4)).toBe(30);
    expect(daysInMonth(2026, 12)).toBe(31);
  });

  it('reads only the English three-letter month names, in their case', () => {
    expect(monthNumber('Jan')).toBe(1);
    expect(monthNumber('Dec')).toBe(12);
    expect(monthNumber('jan')).toBe(0);
    expect(monthNumber('JAN')).toBe(0);
    expect(monthNumber('Mai')).toBe(0);
  });

  it('counts days like Date does, also for years Date.UTC would shift', () => {
    for (const [y, m, d] of [[1970, 1, 1], [2026, 11, 21], [2024, 2, 29], [1601, 1, 1], [2400, 12, 31]]) {
      expect(daysFromCivil(y, m, d) * 86400000).toBe(Date.UTC(y, m - 1, d));
    }
    // Year 0050 is not 1950.
    const fifty = new Date(0);
    fifty.setUTCFullYear(50, 0, 1);
    expect(daysFromCivil(50, 1, 1) * 86400000).toBe(fifty.getTime());
  });

  it('goes back from seconds to a civil time', () => {
    const s = daysFromCivil(2026, 10, 25) * 86400 + 2 * 3600 + 1 * 60 + 30;
    expect(civilFromSeconds(s)).toEqual({ year: 2026, month: 10, day: 25, hour: 2, minute: 1, second: 30 });
  });

  it('writes ISO 8601 with the offset, never Z, keeping -00:00', () => {
    const instant = daysFromCivil(2026, 11, 21) * 86400 + 9 * 3600 + 7;
    expect(isoAt(instant, 3600, false)).toBe('2026-11-21T10:00:07+01:00');
    expect(isoAt(instant, 0, false)).toBe('2026-11-21T09:00:07+00:00');
    expect(isoAt(instant, 0, true)).toBe('2026-11-21T09:00:07-00:00');
    expect(isoAt(instant, -(9 * 3600 + 30 * 60), true)).toBe('2026-11-20T23:30:07-09:30');
  });

  it('writes each stamp as the civil time says, whatever stamps came before (its cache of days and zones)', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const reference = (instant: number, offset: number, negative: boolean) => {
      const t = civilFromSeconds(instant + offset);
      const abs = Math.abs(offset);
      const zone = `${negative || offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600), 2)}:${pad(Math.floor((abs % 3600) / 60), 2)}${abs % 60 ? `:${pad(abs % 60, 2)}` : ''}`;
      return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${zone}`;
    };
    const stamp = fc.record({
      // Years 1000 to 9999, on a few days (the cache's case) and anywhere.
      instant: fc.oneof(fc.integer({ min: -30610224000, max: 253402300799 }), fc.integer({ min: 1793574000, max: 1793574000 + 3 * 86400 })),
      offset: fc.oneof(fc.constantFrom(0, 3600, -18000, 19800), fc.integer({ min: -50400, max: 50400 })),
      negative: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(stamp, { minLength: 1, maxLength: 20 }), (stamps) => {
        for (const { instant, offset, negative } of stamps) {
          const n = offset === 0 ? negative : offset < 0;
          expect(isoAt(instant, offset, n)).toBe(reference(instant, offset, n));
        }
      }),
    );
  });

  it('writes as bytes the text isoAt gives, for any instant and offset, ordinary or not', () => {
    // Whole seconds of a few days and of any year, fractions, and instants and offsets far out.
    const instant = fc.oneof(
      fc.integer({ min: 1793574000, max: 1793574000 + 3 * 86400 }),
      fc.integer({ min: -30610224000, max: 253402300799 }),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
      fc.constantFrom(NaN, Infinity, 1e300),
    );
    const offset = fc.oneof(fc.constantFrom(0, 3600, -18000, 19800), fc.integer({ min: -86399, max: 86399 }), fc.constantFrom(3661, 1e6, -2.5));
    fc.assert(
      fc.property(fc.array(fc.tuple(instant, offset, fc.boolean()), { minLength: 1, maxLength: 20 }), (stamps) => {
        const buf = Buffer.alloc(4096, 0x2a);
        let at = 0;
        let text = '';
        for (const [t, o, negative] of stamps) {
          at = isoInto(buf, at, t, o, negative);
          text += isoAt(t, o, negative);
        }
        expect(buf.toString('latin1', 0, at)).toBe(text);
      }),
    );
  });

  it('isoInto stays compiled across a new day once primeStamps has run', () => {
    // V8 keeps no type feedback over a function's first calls, and isoInto makes a day's
    // bytes on its first: compiled over stamps of one day, it was thrown away at the next
    // day. Asked of V8 itself, in a process that may (natives syntax), with and without.
    const calendar = fileURLToPath(new URL('../../dist/parse/calendar.js', import.meta.url));
    const script = `
      const { isoInto, primeStamps } = await import(${JSON.stringify(calendar)});
      if (process.argv[2] === 'primed') primeStamps();
      const buf = new Uint8Array(64);
      const stamps = (from, n) => { for (let i = 0; i < n; i++) isoInto(buf, 0, from + (i % 80000), 3600, false); };
      stamps(1793574000, 200000);
      const before = (%GetOptimizationStatus(isoInto) & 16) !== 0;
      stamps(1793574000 + 5 * 86400, 1);
      console.log(JSON.stringify([before, (%GetOptimizationStatus(isoInto) & 16) !== 0, buf.toString()]));
    `;
    const days = nodeScript('stamps', script, ['--allow-natives-syntax']);
    const run = (arg: string) => {
      const r = days(arg);
      expect(r.stderr).toBe('');
      return JSON.parse(r.stdout) as [boolean, boolean, string];
    };
    const bytes = Buffer.alloc(64);
    isoInto(bytes, 0, 1793574000 + 5 * 86400, 3600, false);
    // Compiled (kOptimized, bit 4), and still so after the new day; the bytes its own.
    expect(run('primed')).toEqual([true, true, new Uint8Array(bytes).toString()]);
    // Without it, thrown away: what the primer is for (if V8 stops doing so, this says).
    expect(run('cold').slice(0, 2)).toEqual([true, false]);
  });
});
