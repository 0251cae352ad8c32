import { describe, expect, it } from 'vitest';
import { isoAt } from '../../src/parse/calendar.js';
import { bodyStart, entryStartClose, requestIdClose, StampReader, stampProblem } from '../../src/parse/header.js';

const stamps = new StampReader();

function close(line: string): number {
  const b = Buffer.from(line);
  return entryStartClose(b, 0, b.length);
}

/** The header of `line` as ISO (null: malformed), or throws when it starts no entry. */
function stamp(line: string): string | null {
  const b = Buffer.from(line);
  const c = entryStartClose(b, 0, b.length);
  if (c < 0) throw new Error('not an entry start');
  const s = { instant: 0, offset: 0, negative: false };
  return stamps.read(b, 0, c, s) ? isoAt(s.instant, s.offset, s.negative) : null;
}

function instant(line: string): number {
  const b = Buffer.from(line);
  const s = { instant: 0, offset: 0, negative: false };
  if (!stamps.read(b, 0, entryStartClose(b, 0, b.length), s)) throw new Error('malformed');
  return s.instant;
}

describe('what starts an entry', () => {
  it('takes both header shapes', () => {
    expect(close('[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1> DB Error: x')).toBe(27);
    expect(close('[18-Mar-2026 08:36:00 Europe/Berlin] PHP Fatal error:  x')).toBe(35);
    expect(close('[18-Mar-2026 08:36:00 UTC]')).toBe(25);
  });

  it('starts an entry even when the values are invalid', () => {
    expect(close('[99-Xyz-0000 99:99:99 nowhere]: text')).toBeGreaterThan(0);
  });

  it('needs each fixed character in place', () => {
    for (const line of [
      ' [21-Nov-2026 10:04:07 +0100]: x',
      '[1-Nov-2026 10:04:07 +0100]: x',
      '[21-No-2026 10:04:07 +0100]: x',
      '[21-N0v-2026 10:04:07 +0100]: x',
      '[21/Nov/2026 10:04:07 +0100]: x',
      '[21-Nov-26 10:04:07 +0100]: x',
      '[21-Nov-2026T10:04:07 +0100]: x',
      '[21-Nov-2026 10:4:07 +0100]: x',
      '[21-Nov-2026 10-04-07 +0100]: x',
      '[21-Nov-2026 10:04:07+0100]: x',
      '[21-Nov-2026 10:04:07 ]: x',
      '[21-Nov-2026 10:04:07 +0100: x',
      '[21-Nov-2026 10:04:07 Europe/Berlin x]',
      '#0 {main}',
      '',
    ]) {
      expect(close(line), line).toBe(-1);
    }
  });

  it('tells every byte of the fixed part as the pattern does, whatever its value', () => {
    // The fixed part is tested a word at a time: each byte of a good header, set to each of
    // the 256 values in turn, against the pattern read a byte at a time.
    const pattern = '[DD-LLL-DDDD DD:DD:DD ';
    const fits = (c: number, p: string) =>
      p === 'D' ? c >= 0x30 && c <= 0x39 : p === 'L' ? (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) : c === p.charCodeAt(0);
    const good = Buffer.from('xx[21-Nov-2026 10:04:07 +0100]: x');
    for (let at = 0; at < pattern.length; at++) {
      for (let c = 0; c < 256; c++) {
        const b = Buffer.from(good);
        b[2 + at] = c;
        expect(entryStartClose(b, 2, b.length) >= 0, `byte ${at} = ${c}`).toBe(fits(c, pattern[at]));
      }
    }
  });

  it('reads the zone token up to the first ]', () => {
    expect(close('[21-Nov-2026 10:04:07 +0100]]: x')).toBe(27);
  });
});

describe('header values', () => {
  it('reads each stamp as a fresh reader does, whatever stamps came before', () => {
    // The reader keeps the last minute and the last numeric zone: same minutes, bad
    // seconds, bad minutes met twice, zones that change sign or are names of five bytes.
    const lines = [
      '[21-Nov-2026 10:04:07 +0100]',
      '[21-Nov-2026 10:04:59 +0100]',
      '[21-Nov-2026 10:04:60 +0100]',
      '[21-Nov-2026 10:04:08 -0100]',
      '[21-Nov-2026 10:04:08 -0000]',
      '[21-Nov-2026 10:04:08 +0000]',
      '[21-Nov-2026 10:04:09 Japan]',
      '[21-Nov-2026 10:04:09 +9900]',
      '[21-Nov-2026 10:04:09 +0100]',
      '[21-Nov-2026 24:04:09 +0100]',
      '[21-Nov-2026 24:04:10 +0100]',
      '[31-Nov-2026 10:04:10 +0100]',
      '[31-Nov-2026 10:04:11 +0100]',
      '[30-Nov-2026 10:04:11 +01000]',
      '[30-Nov-2026 10:04:11 UTC]',
      '[30-Nov-2026 10:04:11 +0100]',
    ];
    const shared = new StampReader();
    for (const line of lines) {
      const b = Buffer.from(`${line}: x`);
      const c = entryStartClose(b, 0, b.length);
      const seen = { instant: 0, offset: 0, negative: false };
      const fresh = { instant: 0, offset: 0, negative: false };
      const ok = shared.read(b, 0, c, seen);
      expect([ok, seen], line).toEqual([new StampReader().read(b, 0, c, fresh), fresh]);
    }
  });


  it('reads the wall clock and offset into an instant', () => {
    expect(stamp('[21-Nov-2026 10:04:07 +0100]')).toBe('2026-11-21T10:04:07+01:00');
    expect(stamp('[27-Jan-2026 08:03:17 -0800]')).toBe('2026-01-27T08:03:17-08:00');
    expect(stamp('[01-Jan-2026 00:00:00 -0000]')).toBe('2026-01-01T00:00:00-00:00');
    expect(stamp('[01-Jan-2026 00:00:00 +0545]')).toBe('2026-01-01T00:00:00+05:45');
    expect(instant('[21-Nov-2026 10:04:07 +0100]')).toBe(instant('[21-Nov-2026 09:04:07 +0000]'));
  });

  it('takes 29 February only in leap years', () => {
    expect(stamp('[29-Feb-2024 12:00:00 +0000]')).not.toBeNull();
    expect(stamp('[29-Feb-2000 12:00:00 +0000]')).not.toBeNull();
    expect(stamp('[29-Feb-2026 12:00:00 +0000]')).toBeNull();
    expect(stamp('[29-Feb-1900 12:00:00 +0000]')).toBeNull();
  });

  it('refuses days a month does not have, and day 00', () => {
    expect(stamp('[31-Apr-2026 12:00:00 +0000]')).toBeNull();
    expect(stamp('[30-Apr-2026 12:00:00 +0000]')).not.toBeNull();
    expect(stamp('[31-Dec-2026 12:00:00 +0000]')).not.toBeNull();
    expect(stamp('[00-Jan-2026 12:00:00 +0000]')).toBeNull();
    expect(stamp('[32-Jan-2026 12:00:00 +0000]')).toBeNull();
  });

  it('refuses months other than Jan…Dec as written', () => {
    expect(stamp('[01-nov-2026 12:00:00 +0000]')).toBeNull();
    expect(stamp('[01-NOV-2026 12:00:00 +0000]')).toBeNull();
    expect(stamp('[01-Okt-2026 12:00:00 +0000]')).toBeNull();
  });

  it('keeps hours under 24, minutes and seconds under 60', () => {
    expect(stamp('[01-Jan-2026 23:59:59 +0000]')).not.toBeNull();
    expect(stamp('[01-Jan-2026 24:00:00 +0000]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:60:00 +0000]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:00:60 +0000]')).toBeNull();
  });

  it('takes offsets up to ±14 hours with minutes under 60', () => {
    expect(stamp('[01-Jan-2026 12:00:00 +1400]')).toBe('2026-01-01T12:00:00+14:00');
    expect(stamp('[01-Jan-2026 12:00:00 -1400]')).toBe('2026-01-01T12:00:00-14:00');
    expect(stamp('[01-Jan-2026 12:00:00 +1500]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:00:00 +0160]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:00:00 +01:00]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:00:00 +100]')).toBeNull();
    expect(stamp('[01-Jan-2026 12:00:00 Z]')).toBeNull();
  });

  it('resolves zone names through the time-zone database, ignoring case', () => {
    expect(stamp('[18-Mar-2026 08:36:00 Europe/Berlin]')).toBe('2026-03-18T08:36:00+01:00');
    expect(stamp('[18-Jul-2026 08:36:00 europe/berlin]')).toBe('2026-07-18T08:36:00+02:00');
    expect(stamp('[18-Mar-2026 08:36:00 UTC]')).toBe('2026-03-18T08:36:00+00:00');
    expect(stamp('[18-Mar-2026 08:36:00 America/Los_Angeles]')).toBe('2026-03-18T08:36:00-07:00');
    expect(stamp('[18-Mar-2026 08:36:00 Asia/Kathmandu]')).toBe('2026-03-18T08:36:00+05:45');
    expect(stamp('[18-Mar-2026 08:36:00 Mars/Olympus]')).toBeNull();
    expect(stamp('[18-Mar-2026 08:36:00 Local]')).toBeNull();
  });

  it('reads a repeated wall time (DST fall-back) as the earlier instant', () => {
    // Europe/Berlin, 25-Oct-2026: 02:00-02:59 is lived at +02:00, then again at +01:00.
    expect(stamp('[25-Oct-2026 02:30:00 Europe/Berlin]')).toBe('2026-10-25T02:30:00+02:00');
    expect(instant('[25-Oct-2026 02:30:00 Europe/Berlin]')).toBe(instant('[25-Oct-2026 02:30:00 +0200]'));
    // America/New_York, 01-Nov-2026: 01:00-01:59 at -04:00 first.
    expect(instant('[01-Nov-2026 01:30:00 America/New_York]')).toBe(instant('[01-Nov-2026 01:30:00 -0400]'));
  });

  it('reads a skipped wall time (DST spring-forward) with the offset before the gap', () => {
    // Europe/Berlin, 29-Mar-2026: 02:00-02:59 does not exist.
    expect(instant('[29-Mar-2026 02:30:00 Europe/Berlin]')).toBe(instant('[29-Mar-2026 02:30:00 +0100]'));
    expect(instant('[08-Mar-2026 02:30:00 America/New_York]')).toBe(instant('[08-Mar-2026 02:30:00 -0500]'));
  });

  it('compares instants, not wall clocks, across a DST change', () => {
    expect(instant('[25-Oct-2026 02:10:00 +0100]')).toBeGreaterThan(instant('[25-Oct-2026 02:50:00 +0200]'));
  });

  it('says why a header is malformed', () => {
    const problem = (line: string) => {
      const b = Buffer.from(line);
      return stampProblem(b, 0, entryStartClose(b, 0, b.length));
    };
    expect(problem('[31-Apr-2026 12:00:00 +0000]')).toBe('no day 31 in Apr 2026');
    expect(problem('[01-Foo-2026 12:00:00 +0000]')).toBe('no month "Foo"');
    expect(problem('[01-Jan-2026 25:00:00 +0000]')).toBe('no time 25:00:00');
    expect(problem('[01-Jan-2026 12:00:00 +1500]')).toBe('unknown zone "+1500"');
  });
});

describe('body start and request id', () => {
  function body(line: string): string {
    const b = Buffer.from(line);
    const c = entryStartClose(b, 0, b.length);
    return line.slice(bodyStart(b, c, b.length));
  }

  function id(line: string): string | null {
    const b = Buffer.from(line);
    const c = entryStartClose(b, 0, b.length);
    const at = bodyStart(b, c, b.length);
    const end = requestIdClose(b, at, b.length);
    return end < 0 ? null : b.toString('utf8', at + 1, end);
  }

  it("starts the body after `]: ` or `] `", () => {
    expect(body('[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1> DB Error: x')).toBe('<3fa9c2d1> DB Error: x');
    expect(body('[18-Mar-2026 08:36:00 UTC] PHP Fatal error: x')).toBe('PHP Fatal error: x');
    expect(body('[18-Mar-2026 08:36:00 UTC]')).toBe('');
  });

  it('reads any token of 1 to 64 characters followed by a space as the request id', () => {
    expect(id('[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1> DB Error: x')).toBe('3fa9c2d1');
    expect(id('[21-Nov-2026 10:04:07 +0100]: <3FA9C2D1> DB Error: x')).toBe('3FA9C2D1');
    expect(id('[21-Nov-2026 10:04:07 +0100]: <ns0tbuc0> x')).toBe('ns0tbuc0');
    expect(id('[21-Nov-2026 10:04:07 +0100]: <a,B-9> x')).toBe('a,B-9');
    expect(id('[21-Nov-2026 10:04:07 +0100]: <x> x')).toBe('x');
    expect(id(`[21-Nov-2026 10:04:07 +0100]: <${'a'.repeat(64)}> x`)).toBe('a'.repeat(64));
    expect(id(`[21-Nov-2026 10:04:07 +0100]: <${'é'.repeat(64)}> x`)).toBe('é'.repeat(64));
  });

  it('reads no id without a space after it, empty, too long, or with a space inside', () => {
    expect(id('[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1>DB Error: x')).toBeNull();
    expect(id('[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1>')).toBeNull();
    expect(id('[21-Nov-2026 10:04:07 +0100]: <> DB Error: x')).toBeNull();
    expect(id(`[21-Nov-2026 10:04:07 +0100]: <${'a'.repeat(65)}> x`)).toBeNull();
    expect(id('[21-Nov-2026 10:04:07 +0100]: <3fa9 c2d1> x')).toBeNull();
    expect(id('[21-Nov-2026 10:04:07 +0100]: DB Error: <3fa9c2d1> x')).toBeNull();
  });
});
