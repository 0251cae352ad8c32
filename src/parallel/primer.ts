// Entries of every shape, read once by each thread before a large log. V8 optimises a
// function for what it has seen run, and throws the optimised code away to compile it
// again when a path it never saw runs: the first new day, malformed header, shapeless
// DB Error, violation, … of a log, which on 1 GB came after the parser and the analyser
// were optimised, in each thread. Compiling took CPU from the reading on two cores.

import type { Feed } from '../feed.js';
import { MONTH_NAMES } from '../parse/calendar.js';
import { ChunkParser } from './chunk.js';
import { RecordReader, RecordWriter, type RecordBatch } from './records.js';

const SOURCE = '/usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578';

function lookup(stamp: string, id: string, table: string, method = 'POST', segment = 'cpsess1234567890'): string {
  return `[${stamp}]: <${id}> DB Error: [1] no such table: ${table} (SQL Query: SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name) in ${SOURCE} (${method} /${segment}/3rdparty/roundcube/index.php?_task=mail&_action=refresh)`;
}

/** A header's stamp, in UTC, for `seconds` since the epoch. */
function stampAt(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}-${MONTH_NAMES[d.getUTCMonth()]}-${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/**
 * Entries that take the analyser down paths a long log takes only once it is under way,
 * after V8 has compiled the code around them: an id's refreshes 10 minutes apart (its
 * gaps then do not fit a small integer), an id's entry before its first, and a look for
 * lookups left alone that gives one up and keeps a younger one pending, for a pairing
 * window of `window` seconds (one of at least a second: with less, the younger one's
 * own look gives the older one up first).
 */
function laterPaths(window: number): string[] {
  const t = Date.UTC(2026, 0, 30, 10) / 1000;
  const lines = [
    lookup(stampAt(t), 'f00df00d', 'calendars'),
    lookup(stampAt(t), 'f00df00d', 'caldav_calendars'),
    lookup(stampAt(t + 600), 'f00df00d', 'calendars'),
    lookup(stampAt(t + 600), 'f00df00d', 'caldav_calendars'),
    `[${stampAt(t - 60)}]: <f00df00d> IMAP Error: before the id's first entry`,
  ];
  if (window >= 1 && window <= 86_400) {
    const u = t + 3600;
    lines.push(lookup(stampAt(u), 'a0a0a0a0', 'calendars'), lookup(stampAt(u + 1), 'b0b0b0b0', 'calendars'), `[${stampAt(u + Math.floor(window) + 1)}]: <c0c0c0c0> IMAP Error: a while later`);
  }
  return lines;
}

/** A log in the service's image with one of each shape the parser and the rules tell apart. */
const EVERY_SHAPE = [
  'text before the first entry',
  '',
  lookup('27-Jan-2026 08:04:22 -0800', '5e0fb1c0', 'calendars'),
  lookup('27-Jan-2026 08:04:22 -0800', '5e0fb1c0', 'caldav_calendars'),
  lookup('27-Jan-2026 08:05:23 -0800', '5e0fb1c0', 'calendars'),
  lookup('27-Jan-2026 08:05:23 -0800', '5e0fb1c0', 'caldav_calendars'),
  // A pair the wrong way round and a second apart, on another day and zone; a new segment.
  lookup('28-Jan-2026 00:00:01 +0000', 'ab12cd34', 'caldav_calendars', 'POST', 'cpsess2345678901'),
  lookup('28-Jan-2026 00:00:02 -0000', 'ab12cd34', 'calendars', 'POST', 'cpsess2345678901'),
  lookup('28-Jan-2026 00:00:03 +0530', 'ab12cd34', 'calendars', 'POST', 'cpsess3456789012'),
  lookup('28-Jan-2026 00:00:02 +0100', 'NOT-HEX!', 'caldav_calendars'),
  // A multi-line query with CRLF line ends; DB Errors without a request id and without the shape.
  `[28-Jan-2026 00:01:00 +0100]: <ab12cd34> DB Error: [1] no such table: calendars (SQL Query: SELECT *\r`,
  `    FROM "calendars" WHERE (a) in (b)) in ${SOURCE} (POST /cpsess2345678901/3rdparty/roundcube/?_task=mail&_action=refresh)\r`,
  `[28-Jan-2026 00:01:00 +0100]: DB Error: [5] database is locked (SQL Query: SELECT 1) in ${SOURCE} (GET /index.php?_task=mail&_action=refresh)`,
  `[28-Jan-2026 00:01:01 +0100]: <ab12cd34> DB Error: SQLSTATE[HY000] [14] unable to open database file`,
  `[28-Jan-2026 00:01:02 +0100]: <ab12cd34> IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /cpsess2345678901/3rdparty/roundcube/index.php?_task=login&_action=login)`,
  `[28-Jan-2026 00:01:03 +0100]: <ab12cd34> SMTP Error: Connection refused in /x.php on line 1 (POST /cpsess2345678901/3rdparty/roundcube/index.php?_task=mail&_action=send)`,
  `[28-Jan-2026 00:01:04 +0100]: PHP Fatal error:  Allowed memory size exhausted in /x.php on line 9`,
  '#0 {main}',
  `[28-Jan-2026 00:01:05 +0100]: plain text`,
  `[31-Apr-2026 00:01:06 +0100]: <ab12cd34> DB Error: bad day`,
  `[28-Jan-2026 25:01:06 +0100]: bad hour`,
  `[27-Jan-2026 23:00:00 +0100]: earlier than the entry before`,
  lookup('29-Jan-2026 09:00:00 +0100', 'ab12cd34', 'calendars', 'GET', 'cpsess2345678901'),
];

/** The primer for a pairing window of `window` seconds. */
function primer(window: number): string {
  return [...EVERY_SHAPE, ...laterPaths(window), ''].join('\n');
}

/** Ids the sessions primer packs, takes back and packs again. */
const COMING_BACK = 48;

/**
 * Sessions that end and come back, for a stream that packs each id as soon as it is idle:
 * `listedFirst` ids (those a report lists first, which stay as they are: the analyser's
 * REFRESH_ROWS), then 48 more, each packed, taken back by its next entry and packed
 * again (an id packed after one taken back lands on its place). A log of many sessions
 * takes these paths once under way, after V8 has compiled the code around them, which it
 * then threw away (`take`, `countId`, `put`, `retireIdle`). V8 keeps no type feedback
 * over a function's first calls (about 16), so each path is taken dozens of times: with
 * 9 ids packed and 1 taken back, the same code was thrown away as without (docs/speed.md,
 * the sixty-fifth run).
 */
export function sessionsPrimer(listedFirst: number): string {
  const t = Date.UTC(2026, 0, 31, 10) / 1000;
  const id = (i: number) => (0x5e550000 + i).toString(16);
  const sessions = listedFirst + COMING_BACK;
  const lines: string[] = [];
  const refresh = (at: number, i: number) => lines.push(lookup(stampAt(at), id(i), 'calendars'), lookup(stampAt(at), id(i), 'caldav_calendars'));
  for (let i = 0; i < sessions; i++) refresh(t + i, i);
  for (let i = listedFirst; i < sessions; i++) refresh(t + sessions + i, i);
  return [...lines, ''].join('\n');
}

/** What a worker parses (the window does not matter to parsing). */
const DEFAULT_WINDOW = 30;

/** Reads the primer as a worker does, into records (returned). */
export function primeParsing(window = DEFAULT_WINDOW): RecordBatch {
  return new ChunkParser(new RecordWriter()).parseBytes(Buffer.from(primer(window)));
}

/**
 * Reads the primer as the main thread does, into `feed` (a throwaway stream's): straight,
 * and as records of its own and of a worker, read back.
 */
export function primeReading(feed: Pick<Feed, 'push' | 'end' | 'parsed'>, window = DEFAULT_WINDOW): void {
  feed.push(Buffer.from(primer(window)));
  feed.end();
  const batch = primeParsing(window);
  // A worker's batch arrives as a copy made by the structured clone, whose objects V8
  // shapes otherwise than this thread's own: both are read.
  for (const b of [batch, structuredClone(batch)]) {
    new RecordReader().read(b, 0, 0, feed.parsed);
    feed.parsed.countLines(b.lines);
  }
}
