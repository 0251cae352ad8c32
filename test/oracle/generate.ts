// Logs for the differential test: several files of interleaved sessions (ids that end and
// log in again, segments that change, lookups without id or segment), refresh pairs in
// order and out of it, split across seconds or the window, lone lookups, clocks that go
// back, other kinds of entries, multi-line queries, invalid headers and shapeless DB
// Errors, orphan lines, CRLF. Each entry is also described as the generator meant it
// (model.ts's Planned), so the model needs no parser. Seeded: the same seed, the same log.

import { random } from '../../bench/generate.js';
import type { Orphan, Planned, Side } from './model.js';

export interface GeneratedLog {
  files: [string, string][];
  entries: Planned[];
  orphans: Orphan[];
  lines: number;
  /** Lines of each file. */
  fileLines: number[];
  window: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_db.php';
const IMAP_SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_imap.php';
/** Zones as written, with their offset in seconds and how §5 writes that offset. */
const ZONES: [string, number, string][] = [
  ['+0100', 3600, '+01:00'],
  ['+0100', 3600, '+01:00'],
  ['+0200', 7200, '+02:00'],
  ['-0500', -18000, '-05:00'],
  ['+0000', 0, '+00:00'],
  ['-0000', 0, '-00:00'],
  ['+0530', 19800, '+05:30'],
];
const BAD_HEADERS = ['31-Feb-2026 10:00:00 +0100', '21-Nov-2026 10:61:00 +0100', '21-Nov-2026 10:00:00 +1500', '21-Nov-2026 10:00:00 Mars/Olympus', '21-Foo-2026 10:00:00 +0100'];
const ODD_IDS = ['3FA9C2D1', 'ns0tbuc0', 'abc', 'a1b2c3d4e5f6a7b8c9d0', 'Zx,-9aQ1'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `DD-Mon-YYYY HH:MM:SS ±HHMM` for an instant written with a zone. */
function stamp(instant: number, zone: string, offset: number): string {
  const d = new Date((instant + offset) * 1000);
  return `${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${zone}`;
}

/** The offset (seconds) of a zone name at an instant, from the time-zone database. */
function offsetAt(zone: string, instant: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(instant * 1000).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m === null ? 0 : (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
}

/**
 * The instant a wall time in a zone name is read as (SPEC §1): the earlier of two in a
 * repeated hour, and with the offset before the gap in a skipped one. `wall` is the wall
 * time's seconds as if it were UTC.
 */
function readAs(zone: string, wall: number): { instant: number; offset: number } {
  const before = offsetAt(zone, wall - 86400);
  const after = offsetAt(zone, wall + 86400);
  const fits = [before, after].filter((o) => offsetAt(zone, wall - o) === o);
  const offset = fits.length === 0 ? before : Math.max(...fits);
  return { instant: wall - offset, offset };
}

interface Session {
  id: string | null;
  segment: string | null;
  user: number;
}

/** `fileCount`: how many files (default: 1 to 3, as the seed says). */
export function generate(seed: number, size = 300, fileCount?: number): GeneratedLog {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const chance = (p: number) => rnd() < p;
  const window = pick([0, 1, 5, 30, 30, 3600]);
  const drawn = 1 + Math.floor(rnd() * 3);
  fileCount ??= drawn;
  const entries: Planned[] = [];
  const orphans: Orphan[] = [];
  const files: [string, string][] = [];
  const fileLines: number[] = [];
  // A plain day, or the night a DST change in Europe happens (PHP's zone-named entries).
  let clock = pick([Date.UTC(2026, 10, 21, 9, 0, 0), Date.UTC(2026, 9, 25, 0, 45, 0), Date.UTC(2026, 2, 29, 0, 45, 0)]) / 1000;
  const step = pick([1, 1, 8]);
  let serial = 0;

  const newSession = (): Session => {
    serial++;
    const id = chance(0.08) ? null : chance(0.08) ? pick(ODD_IDS) : ((0x10000000 + serial * 7919 + Math.floor(rnd() * 1000)) >>> 0).toString(16).slice(-8);
    const segment = chance(0.1) ? null : `cpsess${pad(Math.floor(rnd() * 1e10), 10)}`;
    return { id, segment, user: Math.floor(rnd() * 50) };
  };
  let sessions: Session[] = Array.from({ length: 1 + Math.floor(rnd() * 5) }, newSession);

  for (let f = 0; f < fileCount; f++) {
    const name = `part${f}.log`;
    const eol = chance(0.2) ? '\r\n' : '\n';
    const out: string[] = [];
    let line = 0;
    const put = (text: string) => {
      for (const l of text.split('\n')) {
        out.push(l);
        line++;
      }
    };
    // Lines before the first entry: runs of non-blank lines, split by blank ones.
    if (chance(0.2)) {
      let inRun = false;
      for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) {
        if (chance(0.3)) {
          put('');
          inRun = false;
        } else {
          put(pick(['#0 /usr/share/roundcube/index.php(280): rcmail->action()', '  thrown in x', 'stray text']));
          if (!inRun) orphans.push({ fileIndex: f, file: name, line });
          inRun = true;
        }
      }
    }
    const perFile = Math.max(1, Math.floor(size / fileCount));
    for (let n = 0; n < perFile; n++) {
      // The clock: mostly forward by a second or two; sometimes a long pause (lookups
      // time out), sometimes back (chronological).
      const r = rnd();
      if (r < 0.03) clock -= 1 + Math.floor(rnd() * 40);
      else if (r < 0.08) clock += window + 1 + Math.floor(rnd() * 60);
      else clock += Math.floor(rnd() * 3 * step);
      if (chance(0.05)) sessions[Math.floor(rnd() * sessions.length)] = newSession();
      if (chance(0.03) && sessions.length < 8) sessions.push(newSession());
      const s = pick(sessions);
      // A session whose segment changes (a re-login keeping the id).
      if (chance(0.02) && s.segment !== null) s.segment = `cpsess${pad(Math.floor(rnd() * 1e10), 10)}`;
      const [zone, offset, offsetText] = pick(ZONES);
      const header = (instant: number) => `[${stamp(instant, zone, offset)}]: `;
      const idPart = s.id === null ? '' : `<${s.id}> `;
      const plan = (kind: Planned['kind'], side: Side | null, instant = clock, malformed = false, code: string | null = null, message: string | null = null): Planned => ({
        fileIndex: f,
        file: name,
        line: line + 1,
        malformed,
        instant,
        offset,
        offsetText,
        kind,
        id: s.id,
        segment: s.segment,
        side,
        code,
        message,
      });
      const refreshPath = (segment: string | null) =>
        `${segment === null ? '' : `/${segment}`}/3rdparty/roundcube/${chance(0.5) ? 'index.php' : ''}?${chance(0.8) ? '_task=mail&_action=refresh' : '_action=refresh&_task=mail&_mbox=INBOX'}`;
      const lookupText = (side: Side, instant: number) => {
        const table = (side === 'local' ? '' : 'caldav_') + 'calendars';
        const prefixed = chance(0.1) ? `rc_${table}` : table;
        const multiline = chance(0.15);
        const sql = multiline
          ? `SELECT *, calendar_id AS id\n  FROM ${prefixed}\n  WHERE user_id = '${s.user}' AND name IN ('a (b)', 'x) in y')\n  ORDER BY name`
          : `SELECT *, calendar_id AS id FROM ${prefixed} WHERE user_id = '${s.user}' ORDER BY name`;
        const [code, message] = chance(0.15) ? ['HY000', 'database is locked'] : ['1', `no such table: ${prefixed}`];
        return { code, message, text: `${header(instant)}${idPart}DB Error: [${code}] ${message} (SQL Query: ${sql}) in ${SRC} on line 578 (POST ${refreshPath(s.segment)})` };
      };
      const kind = rnd();
      if (kind < 0.55) {
        // A refresh: local then remote, with the faults of §2.
        const sides: Side[] = chance(0.1) ? ['remote', 'local'] : ['local', 'remote'];
        if (chance(0.08)) sides.pop();
        for (let k = 0; k < sides.length; k++) {
          const instant = k === 0 ? clock : clock + (chance(0.1) ? pick([1, 2, window + 1]) : 0);
          if (k > 0 && instant > clock) clock = instant;
          const l = lookupText(sides[k], instant);
          entries.push(plan('DB', sides[k], instant, false, l.code, l.message));
          put(l.text);
        }
      } else if (kind < 0.65) {
        entries.push(plan('IMAP', null));
        put(`${header(clock)}${idPart}IMAP Error: Login failed for u${s.user}@example.test against 127.0.0.1 from 192.0.2.${s.user}. in ${IMAP_SRC} on line 211 (POST ${refreshPath(s.segment)})`);
      } else if (kind < 0.72) {
        // Login completion and the entry page: DB errors of no refresh.
        const path = s.segment === null ? '/3rdparty/roundcube/' : `/${s.segment}/3rdparty/roundcube/`;
        if (chance(0.5)) {
          entries.push(plan('DB', null, clock, false, '', ''));
          put(`${header(clock)}${idPart}DB Error: []${chance(0.8) ? '  ' : ' '}(SQL Query: ) in ${SRC} on line 578 (POST ${path}index.php?login=1&post_login=${s.user}123&_task=login&_action=login)`);
        } else {
          entries.push(plan('DB', null, clock, false, '1', 'no such table: users'));
          put(`${header(clock)}${idPart}DB Error: [1] no such table: users (SQL Query: SELECT * FROM users WHERE user_id = '1') in ${SRC} on line 578 (GET ${path}index.php)`);
        }
      } else if (kind < 0.78) {
        // A refresh's error on another table: a DB error, no lookup.
        entries.push(plan('DB', null, clock, false, '1', 'no such table: calendars_old'));
        put(`${header(clock)}${idPart}DB Error: [1] no such table: calendars_old (SQL Query: SELECT * FROM calendars_old) in ${SRC} on line 578 (POST ${refreshPath(s.segment)})`);
      } else if (kind < 0.84) {
        // PHP's own shape: a zone name, no colon, no request id; in a DST night its wall
        // time may be ambiguous or skipped, and is read as §1 says.
        const name = pick(['UTC', 'Europe/Berlin', 'europe/berlin', 'America/New_York']);
        // Sometimes with the offset of an hour before: in the spring night, a wall time
        // the change skipped.
        const wall = clock + offsetAt(name, chance(0.3) ? clock - 3600 : clock);
        const read = readAs(name, wall);
        const e = plan('PHP', null, read.instant);
        e.id = null;
        e.segment = null;
        e.offset = read.offset;
        e.offsetText = '';
        entries.push(e);
        put(`[${stamp(wall, name, 0)}] PHP Fatal error:  Uncaught PDOException: x in ${SRC}:5\nStack trace:\n#0 {main}\n  thrown in ${SRC} on line 5`);
      } else if (kind < 0.9) {
        const e = plan('text', null);
        e.id = null;
        e.segment = null;
        entries.push(e);
        put(`${header(clock)}${pick(['Plugin calendar: driver missing', 'SMTP session ended', '<> not an id'])}`);
      } else if (kind < 0.95) {
        // An invalid header: malformed, whatever follows.
        entries.push(plan('text', null, clock, true));
        put(`[${pick(BAD_HEADERS)}]: ${idPart}DB Error: [1] no such table: calendars (SQL Query: SELECT * FROM calendars) in ${SRC} on line 578 (POST ${refreshPath(s.segment)})`);
      } else {
        // A DB Error without its shape: malformed, its id kept for the violation.
        entries.push(plan('DB', null, clock, true));
        put(`${header(clock)}${idPart}DB Error: [1] no such table: calendars (SQL Query:SELECT * FROM calendars) in ${SRC} on line 578 (POST ${refreshPath(s.segment)})`);
      }
      if (chance(0.03)) put('');
    }
    const noFinalNewline = chance(0.2);
    files.push([name, out.join(eol) + (noFinalNewline ? '' : eol)]);
    // An empty last line without its newline is no line: the file just ends.
    fileLines.push(noFinalNewline && out[out.length - 1] === '' ? line - 1 : line);
  }
  return { files, entries, orphans, lines: fileLines.reduce((a, b) => a + b, 0), fileLines, window };
}
