import { describe, expect, it } from 'vitest';
import { Breakdown, BREAKDOWN_KEPT, REQUEST_IDS_LISTED } from '../../src/analyse/diagnosis.js';
import { KNOWLEDGE } from '../../src/analyse/knowledge.js';
import { check, log, lookup, pair, report, SEG, SRC } from '../helpers.js';

/** What the diagnosis counts an IMAP error of `text` under: its user and client address, or null. */
function loginFailure(text: string): { user: string; client: string } | null {
  const d = check(log(imapLine('10:00:00', text))).summary.diagnosis.find((x) => x.id === 'imap-login-failed');
  if (d === undefined || d.breakdown === undefined) return null;
  const { user, client } = d.breakdown[0];
  return { user, client };
}

/** The address counted when it cannot be told for sure. */
const UNKNOWN_CLIENT = 'unknown';

const ids = (c: ReturnType<typeof check>) => c.summary.diagnosis.map((d) => d.id);
const db = (t: string, code: string, message: string, request: string, id = '3fa9c2d1') =>
  `[21-Nov-2026 ${t} +0100]: <${id}> DB Error: [${code}] ${message} (SQL Query: ${message === '' ? '' : 'SELECT 1'}) in ${SRC} on line 578 (${request})`;
const imapLine = (t: string, text: string, id = 'bbbbbbbb') =>
  `[21-Nov-2026 ${t} +0100]: <${id}> IMAP Error: ${text} in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /${SEG}/x/index.php?_task=login&_action=login)`;

describe('diagnosis', () => {
  it('finds both calendar tables missing as one problem, with ids and first and last seen', () => {
    const c = check(log(pair('10:00:00'), pair('10:01:00', { id: 'aaaaaaaa' })));
    expect(c.summary.diagnosis).toHaveLength(1);
    expect(c.summary.diagnosis[0]).toMatchObject({
      id: 'calendar-tables-missing',
      entries: 4,
      requestIds: ['3fa9c2d1', 'aaaaaaaa'],
      first: '2026-11-21T10:00:00+01:00',
      last: '2026-11-21T10:01:00+01:00',
    });
    expect(c.summary.diagnosis[0].fix.join(' ')).toContain('bin/initdb.sh');
  });

  it('lists the first ids of each diagnosis in report order and counts them all, however they overlap', () => {
    // 1,100 ids: every one locked, every third also read-only; more than a list holds for
    // both. Read as they are, and packed as soon as idle (the marks of more ids than the
    // analyser's first array of packed ids' marks holds: 1,024).
    const refresh = `POST /${SEG}/x/index.php?_task=mail&_action=refresh`;
    const id = (i: number) => (0x10000000 + i).toString(16);
    const at = (i: number) => `10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    const lines: string[] = [];
    for (let i = 0; i < 1100; i++) {
      lines.push(db(at(i), '5', 'database is locked', refresh, id(i)));
      if (i % 3 === 0) lines.push(db(at(i), '8', 'attempt to write a readonly database', refresh, id(i)));
    }
    const all = Array.from({ length: 1100 }, (_, i) => id(i));
    const thirds = all.filter((_, i) => i % 3 === 0);
    for (const retire of [undefined, { afterSeconds: 0, keep: 0, every: 1 }]) {
      const d = check(log(...lines), { retire }).summary.diagnosis;
      expect(d.map((x) => [x.id, x.requestIdCount, x.requestIds])).toEqual([
        ['database-locked', 1100, all.slice(0, REQUEST_IDS_LISTED)],
        ['database-readonly', thirds.length, thirds.slice(0, REQUEST_IDS_LISTED)],
      ]);
    }
  });

  it('counts each entry under its own signature when three take turns, and by request kind', () => {
    // The collector remembers the last two signatures it saw: a third, and the same
    // signature on another kind of request, must still land in their own tallies.
    const refresh = `POST /${SEG}/x/index.php?_task=mail&_action=refresh`;
    const entryPage = `GET /${SEG}/x/index.php`;
    const kinds = [
      db('10:00:00', '5', 'database is locked', refresh),
      db('10:00:01', '8', 'attempt to write a readonly database', refresh),
      db('10:00:02', '', '', entryPage),
      db('10:00:03', '', '', refresh),
    ];
    const lines: string[] = [];
    for (const k of [0, 1, 2, 0, 2, 1, 3, 2, 0, 0, 3, 1, 2]) lines.push(kinds[k].replace(/10:00:0\d/, '10:00:00'));
    const d = check(log(...lines)).summary.diagnosis;
    expect(d.map((x) => [x.id, x.entries])).toEqual([
      ['database-locked', 4],
      ['database-readonly', 3],
      ['empty-db-error', 4],
    ]);
  });

  it('tells which one table is missing when only one is', () => {
    expect(ids(check(log(lookup('10:00:00', 'calendars'))))).toEqual(['local-calendar-table-missing']);
    expect(ids(check(log(lookup('10:00:00', 'caldav_calendars'))))).toEqual(['remote-calendar-table-missing']);
  });

  it('knows a locked and a read-only SQLite database', () => {
    const refresh = `POST /${SEG}/x/index.php?_task=mail&_action=refresh`;
    const c = check(log(db('10:00:00', '5', 'database is locked', refresh), db('10:00:01', '8', 'attempt to write a readonly database', refresh)));
    expect(ids(c)).toEqual(['database-locked', 'database-readonly']);
  });

  it('knows empty DB errors on login and on the entry page, and only there', () => {
    const c = check(
      log(
        db('10:00:00', '', '', `GET /${SEG}/x/index.php`),
        db('10:00:01', '', '', `POST /${SEG}/x/index.php?login=1&post_login=46480620395438&_task=login&_action=login`),
        db('10:00:02', '', '', `POST /${SEG}/x/index.php?_task=mail&_action=list`),
      ),
    );
    expect(c.summary.diagnosis.map((d) => [d.id, d.entries])).toEqual([['empty-db-error', 2]]);
  });

  it('counts refused IMAP logins by user and client address, and tells an outage apart', () => {
    const c = check(
      log(
        imapLine('10:00:00', 'Login failed for alice@example.test against 127.0.0.1 from 198.51.100.23. AUTHENTICATE PLAIN: Authentication failed.'),
        imapLine('10:00:01', 'Login failed for alice@example.test against 127.0.0.1 from 198.51.100.23. AUTHENTICATE PLAIN: Authentication failed.'),
        imapLine('10:00:02', 'Login failed for bob@example.test against 127.0.0.1 from 198.51.100.23. AUTHENTICATE PLAIN: Authentication failed.'),
        imapLine('10:00:03', 'Login failed for alice@example.test against 127.0.0.1 from 203.0.113.5. Could not connect to 127.0.0.1:143: Connection refused'),
      ),
    );
    expect(ids(c)).toEqual(['imap-login-failed', 'imap-unreachable']);
    expect(c.summary.diagnosis[0].breakdown).toEqual([
      { user: 'alice@example.test', client: '198.51.100.23', count: 2 },
      { user: 'bob@example.test', client: '198.51.100.23', count: 1 },
    ]);
  });

  it('keeps a bounded breakdown under a botnet, with the frequent addresses listed exactly and every failure counted', () => {
    const b = new Breakdown();
    let total = 0;
    let largest = 0;
    for (let i = 0; i < 60_000; i++) {
      // One address tries hard all along; the rest come once each, from everywhere.
      b.add(`user${i % 97}`, `198.51.${(i >> 8) & 255}.${i & 255}`);
      total++;
      if (i % 50 === 0) {
        b.add('admin', '203.0.113.66');
        total++;
      }
      largest = Math.max(largest, b.size);
    }
    const rows = b.sorted();
    expect(largest).toBeLessThan(2 * BREAKDOWN_KEPT);
    expect(rows[0]).toEqual({ user: 'admin', client: '203.0.113.66', count: 1200 });
    expect(rows.reduce((sum, r) => sum + r.count, 0) + b.others).toBe(total);
  });

  it('says how many failures were not kept apart, in the report and the JSON', () => {
    const lines = Array.from({ length: 2 * BREAKDOWN_KEPT + 10 }, (_, i) =>
      imapLine(`10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, `Login failed for u${i} from 192.0.2.${i % 250}. AUTHENTICATE PLAIN: failed`),
    );
    const c = check(log(...lines));
    const d = c.summary.diagnosis.find((x) => x.id === 'imap-login-failed')!;
    expect(d.entries).toBe(lines.length);
    expect(d.breakdown!.length + d.breakdownOthers!).toBe(lines.length);
    expect(d.breakdown!.length).toBeLessThanOrEqual(2 * BREAKDOWN_KEPT);
    expect(report('text', c)).toContain(`${d.breakdownOthers!.toLocaleString('en-US')} failures from users and addresses not kept apart`);
    expect(JSON.parse(report('json', c)).diagnosis[0].breakdownOthers).toBe(d.breakdownOthers);
  });

  it('reads the user and client of a login failure', () => {
    expect(loginFailure('Login failed for a@b.c against imap.example.test from 2001:db8::1. x')).toEqual({ user: 'a@b.c', client: '2001:db8::1' });
    expect(loginFailure('Login failed for a against h from 10.0.0.1')).toEqual({ user: 'a', client: '10.0.0.1' });
    expect(loginFailure('Something else')).toBeNull();
  });

  it('reads every form Roundcube writes: 1.4 on, 1.0 to 1.3, the oldest, and behind a proxy', () => {
    expect(loginFailure('Login failed for bob from 203.0.113.7. LOGIN: Authentication failed.')).toEqual({ user: 'bob', client: '203.0.113.7' });
    expect(loginFailure('Login failed for bob from 203.0.113.7')).toEqual({ user: 'bob', client: '203.0.113.7' });
    expect(loginFailure('Login failed for bob against imap from 10.0.0.5(X-Real-IP: 198.51.100.9,X-Forwarded-For: 198.51.100.9). AUTHENTICATE PLAIN: failed')).toEqual({
      user: 'bob',
      client: '10.0.0.5',
    });
    expect(loginFailure('Login failed for bob from 10.0.0.5(X-Forwarded-For: 6.6.6.6).')).toEqual({ user: 'bob', client: '10.0.0.5' });
    expect(loginFailure('Login failed for bob against h from ::ffff:192.0.2.1. x')).toEqual({ user: 'bob', client: '::ffff:192.0.2.1' });
  });

  it('never lets the user name or the answer choose the address counted', () => {
    // The user name and the IMAP answer are the attacker's: an extra "from <address>"
    // there either does not look like Roundcube's, or makes the line ambiguous.
    expect(loginFailure('Login failed for x from 6.6.6.6 against 127.0.0.1 from 192.0.2.10. AUTHENTICATE PLAIN: failed')).toEqual({ user: 'x from 6.6.6.6', client: '192.0.2.10' });
    expect(loginFailure('Login failed for x against evil from 6.6.6.6 against 127.0.0.1 from 192.0.2.10. failed')).toEqual({
      user: 'x against evil from 6.6.6.6',
      client: '192.0.2.10',
    });
    expect(loginFailure('Login failed for x from 192.0.2.10. NO [AUTHENTICATIONFAILED] user=admin from 127.0.0.1. denied')?.client).toBe(UNKNOWN_CLIENT);
    expect(loginFailure('Login failed for x from 6.6.6.6. y against h from 192.0.2.10. z')?.client).toBe(UNKNOWN_CLIENT);
    expect(loginFailure('Login failed for x against h from 192.0.2.10. user=admin from 127.0.0.1')?.client).toBe(UNKNOWN_CLIENT);
    expect(loginFailure('Login failed for x against h from somewhere. no address')?.client).toBe(UNKNOWN_CLIENT);
  });

  it('counts a line with a forged address under the unknown address, not the forged one', () => {
    const c = check(log(imapLine('10:00:00', 'Login failed for x from 192.0.2.10. NO user=admin from 127.0.0.1. denied')));
    expect(c.summary.diagnosis[0].breakdown).toEqual([{ user: 'x', client: UNKNOWN_CLIENT, count: 1 }]);
  });

  it('has nothing to say about a log without known signatures', () => {
    expect(check(log(db('10:00:00', 'HY000', 'no such column: x', `POST /${SEG}/x/index.php?_task=mail&_action=refresh`))).summary.diagnosis).toEqual([]);
  });

  it('keeps its knowledge complete: meaning, fixes and an example for every case', () => {
    for (const k of KNOWLEDGE) {
      expect(k.meaning.length, k.id).toBeGreaterThan(40);
      expect(k.fix.length, k.id).toBeGreaterThan(0);
      expect(k.example.length, k.id).toBeGreaterThan(0);
    }
  });
});
