// The EntryReader's caches (each request id's last tail, its last three refresh error
// bodies, the interners) change how fast an entry is read, never what is read: one reader
// over a whole stream reads every entry as a fresh reader reads it alone.

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Assembler } from '../../src/parse/assembler.js';
import { EntryReader, type Entry } from '../../src/parse/entry.js';
import { RequestCode } from '../../src/parse/request.js';
import { SRC, check, keysOfOneSet, log, report, type Checked } from '../helpers.js';

/**
 * Each entry of `text` as one reader of the whole text reads it, and as a reader of that
 * entry alone does. `into`: the assembler reads into a buffer of its own (the known bodies
 * compared by Buffer#compare), or into the reader's (compared in WebAssembly).
 */
function readBoth(text: string, into: 'own' | 'reader'): { stream: Entry[]; alone: Entry[] } {
  const stream: Entry[] = [];
  const alone: Entry[] = [];
  // Where the reader keeps the id (its interner's slot) is its own affair: a fresh reader
  // may keep it in the other slot of its set.
  const read = (e: Entry): Entry => ({ ...e, idSlot: -1 });
  const reader = new EntryReader();
  const buf = into === 'reader' ? reader.readBuffer() : null;
  if (into === 'reader') expect(buf).not.toBeNull();
  const asm = new Assembler(
    {
      entry: (buf, s, e, c, f, line, truncated) => {
        stream.push(read(reader.read(buf, s, e, c, f, 0, line, truncated)));
        alone.push(read(new EntryReader().read(buf, s, e, c, f, 0, line, truncated)));
      },
      orphanRun: () => {},
    },
    buf,
  );
  asm.push(Buffer.from(text));
  asm.endFile();
  return { stream, alone };
}

// Bodies alike in length and in their first and last bytes, unlike in between: a cache
// keyed or compared carelessly takes one for another.
const id = fc.oneof(fc.constantFrom('3fa9c2d1', '3fa9c2d2', 'a08ff49b'), fc.stringMatching(/^[0-9a-f]{8}$/));
const table = fc.constantFrom('calendars', 'calendarz', 'caldav_calendars', 'caldav_calendarz');
const user = fc.constantFrom('1', '2', '7');
// Segments alike but for their digits (each login's), or for a byte that is no digit: a
// tail read for one id stands for another's only when they differ in the digits alone.
const segment = fc.oneof(
  fc.constantFrom('cpsess0123456789', 'cpsess0123456780', 'cpsess012345678x', 'cpsess012345678', null),
  fc.stringMatching(/^cpsess[0-9]{10}$/),
  fc.stringMatching(/^cpsess[0-9/?&)x ]{10}$/),
);
// Queries of any length: a tail like one read before must still begin inside the query.
const query = fc.constantFrom('', ') in x', "x') in /y on line 1 (GET /a)");
const action = fc.constantFrom('refresh', 'refresj', 'list');
// A login's query: its post_login digits change with each login, as the segment's do; a
// tail read for one stands for another's only while it stays a login's (`login=1`, digits).
const login = fc.oneof(
  fc.constantFrom('login=1&post_login=21045722657174', 'login=1&post_login=21045722657175', 'login=2&post_login=21045722657174', 'login=1&post_login=2104572265717x', 'login=1&post_login=', 'login=1&post_login=1&post_login=2'),
  fc.stringMatching(/^login=1&post_login=[0-9]{14}$/),
  fc.stringMatching(/^login=[0-9]&post_login=[0-9&x]{3}$/),
);
// What follows it: a refresh's parameters (of the same length, one misspelt) make it no login.
const afterLogin = fc.constantFrom('_task=login&_action=login', '_task=mail&_action=refresh', '_task=mail&_action=refresj');
const method = fc.constantFrom('POST', 'GETS', 'GET');
const message = fc.constantFrom('no such table: ', 'no such tablo: ', 'database is locked ', '', ' ', 'x (SQL Query: y');
// Heads alike but for a byte: each is read once and kept with its signature.
const code = fc.constantFrom('[1]', '[]', '[11]', '[1 ]');
const sqlQuery = fc.constantFrom(' (SQL Query: ', ' (SQL Query:', '  (SQL Query: ');
const multiline = fc.boolean();
const dbError = fc
  .record({ id, table, user, segment, action, login: fc.option(fc.tuple(login, afterLogin)), method, message, multiline, query, code, sqlQuery })
  .map(({ id, table, user, segment, action, login, method, message, multiline, query, code, sqlQuery }) => {
    const params = login === null ? `_task=mail&_action=${action}` : `${login[0]}&${login[1]}`;
    const path = `${segment === null ? '' : `/${segment}`}/3rdparty/roundcube/index.php?${params}`;
    const q = multiline ? `SELECT *, calendar_id AS id\n                FROM ${table}\n                WHERE user_id='${user}'${query}` : `SELECT * FROM ${table} WHERE user_id = '${user}'${query}`;
    return `[21-Nov-2026 10:00:00 +0100]: <${id}> DB Error: ${code} ${message}${message.startsWith('no') ? table : ''}${sqlQuery}${q}) in ${SRC} on line 578 (${method} ${path})`;
  });
const other = fc.constantFrom(
  `[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> IMAP Error: Login failed for a@b against 127.0.0.1 from 127.0.0.1. in x on line 1 (POST /x)`,
  `[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] no such table: calendars`,
  `[21-Nov-2026 10:00:00 +0100]: DB Error: [1] no such table: calendars (SQL Query: SELECT * FROM calendars) in ${SRC} on line 578 (POST /cpsess1/x?_task=mail&_action=refresh)`,
);

describe.each(['own', 'reader'] as const)('EntryReader, the assembler reading into its %s buffer', (into) => {
  it('reads an entry the same whatever it read before (its caches only save work)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 6, arbitrary: dbError }, { weight: 1, arbitrary: other }), { minLength: 1, maxLength: 40 }), (lines) => {
        const { stream, alone } = readBoth(log(...lines), into);
        expect(stream).toEqual(alone);
      }),
      { numRuns: 300 },
    );
  });

  it("reads a new session's tail as another's only where they differ in the digits alone", () => {
    // One DB error written by many sessions: each its own id, its segment's last ten
    // bytes and a login's post_login value, each sometimes no digits (a `/`, `?`, `&`,
    // `)`, a space, a letter) or a byte shorter. The general property above seldom writes
    // two entries so alike: here every one is a shape's candidate (likeTail).
    const tenBytes = fc.oneof({ weight: 3, arbitrary: fc.stringMatching(/^[0-9]{10}$/) }, { weight: 1, arbitrary: fc.stringMatching(/^[0-9/?&)x ]{9,10}$/) });
    const loginValue = fc.oneof({ weight: 3, arbitrary: fc.stringMatching(/^[0-9]{14}$/) }, { weight: 1, arbitrary: fc.stringMatching(/^[0-9&x=]{13,14}$/) });
    const session = fc.record({ id, digits: tenBytes, value: loginValue });
    fc.assert(
      fc.property(
        fc.record({ table, code, message, method, action, multiline, query, login: fc.boolean() }),
        fc.array(session, { minLength: 2, maxLength: 12 }),
        ({ table, code, message, method, action, multiline, query, login }, sessions) => {
          const lines = sessions.map(({ id, digits, value }) => {
            const params = login ? `login=1&post_login=${value}&_task=login&_action=login` : `_task=mail&_action=${action}`;
            const q = multiline ? `SELECT *\n  FROM ${table}${query}` : `SELECT * FROM ${table}${query}`;
            return `[21-Nov-2026 10:00:00 +0100]: <${id}> DB Error: ${code} ${message}${message.startsWith('no') ? table : ''} (SQL Query: ${q}) in ${SRC} on line 578 (${method} /cpsess${digits}/3rdparty/roundcube/index.php?${params})`;
          });
          const { stream, alone } = readBoth(log(...lines), into);
          expect(stream).toEqual(alone);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("takes a tail like another id's only where this entry's query can end", () => {
    // The source file holds ` (SQL Query: `: the second entry's query starts inside the
    // tail the first one's ends with, so that tail cannot be its tail (it is malformed).
    const tail = (digits: string) => ` in /a (SQL Query: b on line 1 (POST /cpsess${digits}/x?_task=mail&_action=refresh)`;
    const { stream, alone } = readBoth(
      log(
        `[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] m (SQL Query: q)${tail('0123456789')}`,
        `[21-Nov-2026 10:00:00 +0100]: <a08ff49b> DB Error: [1] m)${tail('1111111111')}`,
      ),
      into,
    );
    expect(stream).toEqual(alone);
    expect(stream.map((e) => e.problem === null)).toEqual([true, false]);
  });

  it('reads the same past the bounds of its caches: more request ids than they keep, bodies longer than a place', () => {
    const long = 'x'.repeat(500);
    // 2,500 ids, twice: more than either the tails (512) or the bodies (256) keep. The
    // second time with another tail: an id still holding its place takes it again.
    const lines: string[] = [];
    for (let round = 0; round < 2; round++) {
      const action = round === 0 ? 'refresh' : 'list';
      for (let i = 0; i < 2500; i++) {
        const id = i.toString(16).padStart(8, '0');
        const table = i % 2 === 0 ? 'calendars' : 'caldav_calendars';
        lines.push(`[21-Nov-2026 10:00:00 +0100]: <${id}> DB Error: [1] no such table: ${table} (SQL Query: SELECT * FROM ${table}) in ${SRC} on line 578 (POST /cpsess000000000${i % 7}/x?_task=mail&_action=${action}${i % 3 === 0 ? long : ''})`);
      }
    }
    const { stream, alone } = readBoth(log(...lines), into);
    expect(stream).toEqual(alone);
    expect(new Set(stream.map((e) => e.segment)).size).toBe(7);
    // The first round's, but for a third of them, whose path runs on past `refresh`.
    expect(stream.filter((e) => e.request === RequestCode.Refresh)).toHaveLength(1666);
  });
});

describe.each(['own', 'reader'] as const)('EntryReader, ids of one interner slot, the assembler reading into its %s buffer', (into) => {
  it("reads each id's entries as its own, turn by turn", () => {
    // Three ids of one set of two slots, taken in turn: each finds another's state in its slot.
    const [a, b, c] = keysOfOneSet([8, 8, 8]);
    const entry = (id: string, table: string, digits: string) =>
      `[21-Nov-2026 10:00:00 +0100]: <${id}> DB Error: [1] no such table: ${table} (SQL Query: SELECT * FROM ${table}) in ${SRC} on line 578 (POST /cpsess${digits}/x?_task=mail&_action=refresh)`;
    const lines: string[] = [];
    for (let round = 0; round < 3; round++) {
      lines.push(entry(a, 'calendars', '1111111111'), entry(b, 'calendars', '2222222222'), entry(c, 'calendars', '3333333333'));
      lines.push(entry(a, 'caldav_calendars', '1111111111'), entry(b, 'caldav_calendars', '2222222222'), entry(c, 'caldav_calendars', '3333333333'));
    }
    const { stream, alone } = readBoth(log(...lines), into);
    expect(stream).toEqual(alone);
    expect(new Set(stream.map((e) => `${e.requestId} ${e.segment}`))).toEqual(new Set([`${a} cpsess1111111111`, `${b} cpsess2222222222`, `${c} cpsess3333333333`]));
  });
});

describe("the reader's space", () => {
  it('hands a buffer given back to the next input, so a run of any number of inputs reads each in it', () => {
    const reader = new EntryReader();
    // Four are held for inputs at once (READ_BUFFERS), and one for entries cut elsewhere.
    const held = Array.from({ length: 4 }, () => reader.readBuffer());
    expect(held.every((b) => b !== null)).toBe(true);
    expect(reader.scratch(1000)).not.toBeNull();
    expect(reader.readBuffer()).toBeNull();
    // An input read to its end gives its buffer back: the next one reads into it.
    reader.giveBack(held[2] as Buffer);
    expect(reader.readBuffer()).toBe(held[2]);
    expect(reader.readBuffer()).toBeNull();
    // Entries cut elsewhere share one buffer; more than it holds get one of their own.
    expect(reader.scratch(10)).toBe(reader.scratch(20));
    expect(reader.scratch(10 << 20)).not.toBe(reader.scratch(10));
  });

  it('reads ten inputs one after another as it reads them in one', () => {
    // Inputs past the fourth read into buffers given back by the ones before: a buffer
    // given back too soon, or twice, would be read into while still held.
    const lines = (k: number) =>
      Array.from({ length: 3000 }, (_, i) => {
        // A pair a second, local then remote, 40 ids in turn.
        const id = (Math.floor((k * 3000 + i) / 2) % 40).toString(16).padStart(8, '0');
        const table = i % 2 === 0 ? 'calendars' : 'caldav_calendars';
        const s = 36000 + Math.floor((k * 3000 + i) / 2);
        const t = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
        return `[21-Nov-2026 ${t} +0100]: <${id}> DB Error: [1] no such table: ${table} (SQL Query: SELECT * FROM ${table}) in ${SRC} on line 578 (POST /cpsess000000000${i % 7}/x?_task=mail&_action=refresh)`;
      });
    const inputs = Array.from({ length: 10 }, (_, k) => log(...lines(k)));
    const one = check(inputs.join(''));
    const ten = check(inputs.map((text, k): [string, string] => [`errors.log.${k}`, text]));
    expect(ten.summary.entries).toBe(30_000);
    expect(ten.summary.refreshPairs).toBeGreaterThan(0);
    const json = (c: Checked) => JSON.parse(report('json', c));
    const [a, b] = [json(one), json(ten)];
    expect({ ...b.summary, files: 1 }).toEqual(a.summary);
    expect(b.requestIds).toEqual(a.requestIds);
    expect(b.signatures).toEqual(a.signatures);
  });
});

describe('EntryReader, bodies kept by request id', () => {
  it("keeps a refresh's body for its id to find again, not a login's or an entry page's", () => {
    // A refresh's two lookups repeat byte for byte all session long; a login's and an
    // entry page's body comes once a session: kept, it was a copy for nothing. Whether a
    // body was found again shows in whether its head was read (likeHead) the second time.
    const at = (request: string) =>
      `[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] no such table: calendars (SQL Query: SELECT * FROM calendars) in ${SRC} on line 578 (${request})`;
    const headsRead = (line: string, request: RequestCode): number => {
      const reader = new EntryReader();
      const likeHead = vi.spyOn(reader as unknown as { likeHead: () => unknown }, 'likeHead');
      const read: Entry[] = [];
      const asm = new Assembler({ entry: (b, s, e, c, f, l) => read.push({ ...reader.read(b, s, e, c, f, 0, l), line: 1 }), orphanRun: () => {} });
      asm.push(Buffer.from(log(line, line)));
      asm.endFile();
      expect(read.map((e) => e.request)).toEqual([request, request]);
      expect(read[1]).toEqual(read[0]);
      return likeHead.mock.calls.length;
    };
    expect(headsRead(at('POST /cpsess0123456789/x?_task=mail&_action=refresh'), RequestCode.Refresh)).toBe(1);
    expect(headsRead(at('POST /cpsess0123456789/x?_task=login&_action=login&login=1&post_login=12345678901234'), RequestCode.Login)).toBe(2);
    expect(headsRead(at('GET /cpsess0123456789/3rdparty/roundcube/'), RequestCode.Entry)).toBe(2);
  });
});
