// Hostile and broken logs for property tests: random bytes, and real-looking logs put
// through the damage real logs suffer (truncation, lost and repeated lines, flipped
// bytes, NULs, invalid UTF-8, lone CRs, headers with a bad field).

import fc from 'fast-check';
import { imap, log, lookup } from '../helpers.js';

function clock(t: number): string {
  return `10:${String(Math.floor(t / 60) % 60).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
}

const line = fc.oneof(
  fc.record({ t: fc.integer({ min: 0, max: 300 }), remote: fc.boolean(), id: fc.constantFrom('aaaaaaaa', 'bbbbbbbb', 'ns0tbuc0', null) }).map(({ t, remote, id }) =>
    lookup(clock(t), remote ? 'caldav_calendars' : 'calendars', { id }),
  ),
  fc.integer({ min: 0, max: 300 }).map((t) => imap(clock(t))),
  fc.constantFrom(
    '                FROM caldav_calendars',
    '#0 /usr/share/roundcube/program/lib/Roundcube/rcube_db.php(563): PDOStatement->execute()',
    '',
    '[18-Mar-2026 08:36:00 Europe/Berlin] PHP Fatal error:  Uncaught PDOException',
    '[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: []  (SQL Query: ) in /x.php on line 578 (GET /cpsess0123456789/x/index.php)',
  ),
);

/** A header with one field made invalid. */
const badHeader = fc.constantFrom(
  '[32-Nov-2026 10:00:00 +0100]: x',
  '[29-Feb-2026 10:00:00 +0100]: x',
  '[21-Nov-2026 10:00:00 +0100]: x'.replace('Nov', 'Foo'),
  '[21-Nov-2026 24:00:00 +0100]: x',
  '[21-Nov-2026 10:60:00 +0100]: x',
  '[21-Nov-2026 10:00:60 +0100]: x',
  '[21-Nov-2026 10:00:00 +1500]: x',
  '[21-Nov-2026 10:00:00 +0175]: x',
  '[21-Nov-2026 10:00:00 Mars/Olympus] x',
  '[00-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] x (SQL Query: y) in f on line 1 (POST /x)',
);

type Mutation = (b: Buffer) => Buffer;

function at(b: Buffer, share: number): number {
  return Math.floor(share * (b.length + 1));
}

function lineBounds(b: Buffer, share: number): [number, number] {
  const starts = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 10) starts.push(i + 1);
  const k = Math.min(starts.length - 1, Math.floor(share * starts.length));
  const end = k + 1 < starts.length ? starts[k + 1] : b.length;
  return [starts[k], end];
}

const share = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  share.map((s) => (b: Buffer) => b.subarray(0, at(b, s))),
  share.map((s) => (b: Buffer) => {
    const [from, to] = lineBounds(b, s);
    return Buffer.concat([b.subarray(0, from), b.subarray(to)]);
  }),
  share.map((s) => (b: Buffer) => {
    const [from, to] = lineBounds(b, s);
    return Buffer.concat([b.subarray(0, to), b.subarray(from, to), b.subarray(to)]);
  }),
  fc.tuple(share, fc.integer({ min: 1, max: 255 })).map(([s, x]) => (b: Buffer) => {
    const c = Buffer.from(b);
    const i = Math.min(c.length - 1, at(b, s));
    if (i >= 0) c[i] ^= x;
    return c;
  }),
  fc.tuple(share, fc.constantFrom([0], [0xff, 0xfe], [0x80], [0xe2, 0x82], [0xc3], [13], [0x1b, 0x5b, 0x32, 0x4a])).map(
    ([s, bytes]) => (b: Buffer) => Buffer.concat([b.subarray(0, at(b, s)), Buffer.from(bytes), b.subarray(at(b, s))]),
  ),
  fc.tuple(share, badHeader).map(([s, h]) => (b: Buffer) => {
    const [from] = lineBounds(b, s);
    return Buffer.concat([b.subarray(0, from), Buffer.from(h + '\n'), b.subarray(from)]);
  }),
);

/** A real-looking log with damage done to it. */
export const damagedLog = fc
  .tuple(fc.array(line, { maxLength: 40 }), fc.array(mutation, { maxLength: 6 }), fc.boolean())
  .map(([lines, mutations, crlf]) => {
    let b: Buffer = Buffer.from(crlf ? log(...lines).replace(/\n/g, '\r\n') : log(...lines));
    for (const m of mutations) b = m(b);
    return b;
  });

/** Plain random bytes, sometimes with newlines and brackets mixed in. */
export const randomBytes = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)),
  fc.array(fc.constantFrom(...'[]<>()\n\r :-0123456789NovDB Error'.split('')), { maxLength: 3000 }).map((a) => Buffer.from(a.join(''))),
);

/** Lines in a buffer, as the SPEC counts them: LF ends a line; a last line without one counts. */
export function trueLineCount(b: Buffer): number {
  let n = 0;
  for (const c of b) if (c === 10) n++;
  return b.length > 0 && b[b.length - 1] !== 10 ? n + 1 : n;
}
