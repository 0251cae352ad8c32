// A deterministic log generator in the image of the real service's errors.log, with
// violations planted at known places: the benchmark's input and its ground truth.
//
// Profiles model real traffic: a number of webmail sessions open at once, each
// refreshing about once a minute for a while, then ending; a fresh login takes its
// place with a new request id and session segment (and writes the empty DB errors of a
// login, as the real service does). Multi-line queries, IMAP errors and malformed
// entries are mixed in.

import { closeSync, openSync, writeSync } from 'node:fs';
import { isoAt, MONTH_NAMES } from '../src/parse/calendar.js';

const SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_db.php';
const IMAP_SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_imap.php';

export interface Profile {
  name: string;
  description: string;
  /** Sessions open at once. */
  concurrent: number;
  /** How long a session lasts, in minutes: [shortest, longest]; null: for the whole log. */
  sessionMinutes: [number, number] | null;
  /** Share of lookups written with a multi-line query. */
  multiline: number;
}

export const PROFILES: Record<string, Profile> = {
  busy: {
    name: 'busy',
    description: 'busy server: 60 sessions at once, each 30-300 min, then a new login (~9k request ids per GB)',
    concurrent: 60,
    sessionMinutes: [30, 300],
    multiline: 0.05,
  },
  short: {
    name: 'short',
    description: 'short sessions: 60 at once, each 8-16 min (~100k request ids per GB)',
    concurrent: 60,
    sessionMinutes: [8, 16],
    multiline: 0.05,
  },
  few: {
    name: 'few',
    description: 'few sessions: 40 request ids for the whole log (the first benchmark)',
    concurrent: 40,
    sessionMinutes: null,
    multiline: 0.25,
  },
};

/** mulberry32: small, fast, and the same sequence on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the generated log must produce. */
export interface GroundTruth {
  bytes: number;
  lines: number;
  entries: number;
  dbErrors: number;
  otherEntries: number;
  malformedEntries: number;
  refreshPairs: number;
  requestIds: number;
  violations: Record<string, number>;
}

interface Session {
  id: string;
  segment: string;
  user: number;
  /** When it ends (seconds); Infinity for a session of the whole log. */
  ends: number;
  /** Its next refresh. */
  next: number;
}

function stamp(instant: number): string {
  // Local time at +0100, as PHP's date('d-M-Y H:i:s O') writes it.
  const iso = isoAt(instant, 3600, false);
  const [date, time] = iso.split('T');
  const [y, m, d] = date.split('-');
  return `[${d}-${MONTH_NAMES[Number(m) - 1]}-${y} ${time.slice(0, 8)} +0100]`;
}

/** Writes about `targetBytes` of log to `path` and returns what a correct check finds there. */
export function generateLog(path: string, targetBytes: number, profile: Profile, seed = 1): GroundTruth {
  const rnd = random(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  const truth: GroundTruth = {
    bytes: 0,
    lines: 0,
    entries: 0,
    dbErrors: 0,
    otherEntries: 0,
    malformedEntries: 0,
    refreshPairs: 0,
    requestIds: 0,
    violations: { 'pair-order': 0, 'pair-same-second': 0, 'pair-incomplete': 0, chronological: 0, 'request-id-format': 0, 'session-consistency': 0, malformed: 0 },
  };
  const fd = openSync(path, 'w');
  let out: string[] = [];
  let pending = 0;
  const emit = (text: string, lines: number) => {
    out.push(text);
    pending += text.length;
    truth.lines += lines;
    if (pending > 1 << 22) flush();
  };
  const flush = () => {
    const chunk = Buffer.from(out.join(''));
    writeSync(fd, chunk);
    truth.bytes += chunk.length;
    out = [];
    pending = 0;
  };
  const used = new Set<string>();
  /** The instant of the last well-formed entry written. */
  let last = -Infinity;
  let users = 0;
  let now = Date.UTC(2026, 10, 1) / 1000;
  const newSession = (): Session => {
    let id = hex(8);
    while (used.has(id)) id = hex(8);
    used.add(id);
    truth.requestIds++;
    const m = profile.sessionMinutes;
    const minutes = m === null ? Infinity : m[0] + rnd() * (m[1] - m[0]);
    const s: Session = { id, segment: `cpsess${digits(10)}`, user: ++users, ends: now + minutes * 60, next: now + 1 + Math.floor(rnd() * 60) };
    // A login writes the empty DB errors of its completion and of the entry page.
    if (m !== null) {
      const base = `/${s.segment}/3rdparty/roundcube/index.php`;
      last = now;
      emit(`${stamp(now)}: <${id}> DB Error: []  (SQL Query: ) in ${SRC} on line 578 (POST ${base}?login=1&post_login=${digits(14)}&_task=login&_action=login)\n`, 1);
      emit(`${stamp(now)}: <${id}> DB Error: []  (SQL Query: ) in ${SRC} on line 578 (GET ${base})\n`, 1);
      truth.entries += 2;
      truth.dbErrors += 2;
    }
    return s;
  };
  const lookup = (t: number, s: Session, table: string, multiline: boolean) => {
    last = t;
    const query = multiline
      ? `SELECT *, calendar_id AS id\n                FROM ${table}\n                WHERE user_id='${s.user}'\n                ORDER BY name`
      : `SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '${s.user}' ORDER BY name`;
    emit(
      `${stamp(t)}: <${s.id}> DB Error: [1] no such table: ${table} (SQL Query: ${query}) in ${SRC} on line 578 (POST /${s.segment}/3rdparty/roundcube/index.php?_task=mail&_action=refresh)\n`,
      multiline ? 4 : 1,
    );
    truth.entries++;
    truth.dbErrors++;
  };
  const imap = (t: number, s: Session) => {
    last = t;
    emit(
      `${stamp(t)}: <${s.id}> IMAP Error: Login failed for user${s.user}@example.test against 127.0.0.1 from 203.0.113.${s.user % 250}. Could not connect to 127.0.0.1:143: Connection refused in ${IMAP_SRC} on line 211 (POST /${s.segment}/3rdparty/roundcube/index.php?_task=mail&_action=refresh)\n`,
      1,
    );
    truth.entries++;
    truth.otherEntries++;
  };

  const sessions: Session[] = [];
  for (let i = 0; i < profile.concurrent; i++) sessions.push(newSession());
  const approxEntry = 330;
  while (truth.bytes + pending < targetBytes - approxEntry * 6) {
    // The session whose refresh is due first (a few dozen: a linear scan is cheap).
    let k = 0;
    for (let i = 1; i < sessions.length; i++) if (sessions[i].next < sessions[k].next) k = i;
    let s = sessions[k];
    now = Math.max(now, s.next);
    if (now >= s.ends) {
      sessions[k] = s = newSession();
      continue;
    }
    // Each refresh of a session comes 50-70 s after its last: no lookup of a session is
    // within the 30 s pairing window of its previous refresh.
    s.next = now + 50 + Math.floor(rnd() * 21);
    const multiline = rnd() < profile.multiline;
    const roll = rnd();
    if (roll < 0.0005) {
      // pair-order: remote first, then local, same second.
      lookup(now, s, 'caldav_calendars', multiline);
      lookup(now, s, 'calendars', false);
      truth.refreshPairs++;
      truth.violations['pair-order']++;
    } else if (roll < 0.001) {
      // pair-same-second: the remote lookup a second late. Other sessions' entries
      // stamped in that second keep the stream in order: they come after it.
      lookup(now, s, 'calendars', false);
      now += 1;
      lookup(now, s, 'caldav_calendars', multiline);
      truth.refreshPairs++;
      truth.violations['pair-same-second']++;
    } else if (roll < 0.0015) {
      // pair-incomplete: the remote lookup never written; the session's next refresh
      // is over 30 s away.
      lookup(now, s, 'calendars', false);
      truth.violations['pair-incomplete']++;
    } else if (roll < 0.002) {
      // chronological: an entry stamped five minutes back; a step back only when the
      // entry before was not itself stamped back further.
      if (now - 300 < last) truth.violations.chronological++;
      imap(now - 300, s);
    } else if (roll < 0.0025) {
      // malformed: a day April does not have.
      emit(`[31-Apr-2026 10:00:00 +0100]: <${s.id}> DB Error: [1] no such table: calendars (SQL Query: x) in ${SRC} on line 578 (POST /x)\n`, 1);
      truth.entries++;
      truth.malformedEntries++;
      truth.violations.malformed++;
    } else {
      if (roll < 0.02) imap(now, s);
      lookup(now, s, 'calendars', false);
      lookup(now, s, 'caldav_calendars', multiline);
      truth.refreshPairs++;
    }
  }
  flush();
  closeSync(fd);
  return truth;
}
