// What an operator asks besides the rules, through the binary: filters, timeline,
// cadence notes, diagnosis and explain.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './run.js';

const sample = join(ROOT, 'samples', 'operator-diagnosis');
const json = async (args: string[]) => {
  const ran = await cli(['analyse', '--format', 'json', ...args, 'errors.log'], { cwd: sample });
  return { ...ran, doc: ran.stdout ? JSON.parse(ran.stdout) : null };
};

describe('filters', () => {
  it('select by time: ISO 8601 both ends', async () => {
    const { doc, status } = await json(['--since', '2026-11-21T10:05:00+01:00', '--until', '2026-11-21T10:07:00+01:00']);
    expect(doc.summary).toMatchObject({ entries: 5, violations: { error: 0, warning: 0 } });
    expect(doc.selection).toEqual({ since: '2026-11-21T10:05:00+01:00', until: '2026-11-21T10:07:00+01:00', requestIds: null, segments: null });
    expect(status).toBe(0);
  });

  it('select by request id and by segment', async () => {
    const byId = await json(['--request-id', 'b5e6f7a8']);
    expect(byId.doc.requestIds.map((r: { id: string }) => r.id)).toEqual(['b5e6f7a8']);
    const bySegment = await json(['--segment', 'cpsess1111111111']);
    expect(bySegment.doc.requestIds.map((r: { id: string }) => r.id)).toEqual(['a1b2c3d4']);
    expect(bySegment.doc.violations.map((v: { rule: string }) => v.rule)).toEqual(['pair-same-second']);
  });

  it('take an age before now: since long ago is everything, until long ago is nothing', async () => {
    // 100,000 days (273 years) is far from the sample's date whatever the clock says.
    expect((await json(['--since', '100000d'])).doc.summary.entries).toBe(22);
    expect((await json(['--until', '100000d'])).doc.summary.entries).toBe(0);
  });

  it('refuse a time they cannot read, in one line', async () => {
    const ran = await cli(['analyse', '--since', 'last tuesday', 'errors.log'], { cwd: sample });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/^webmail-log: option '--since <when>' argument 'last tuesday' is invalid\. expected a time like/);
  });
});

describe('reports', () => {
  it('JSON has the timeline, the cadence, the notes and the diagnosis', async () => {
    const { doc } = await json([]);
    expect(doc.timeline).toMatchObject({ bucketSeconds: 60, start: '2026-11-21T09:59:00+01:00' });
    expect(doc.requestIds[0].refreshCadence).toEqual({ refreshes: 7, medianGapSeconds: 60, longestGapSeconds: 960 });
    expect(doc.notes.map((n: { requestId: string; seconds: number }) => [n.requestId, n.seconds])).toEqual([['a1b2c3d4', 960]]);
    expect(doc.diagnosis.map((d: { id: string }) => d.id)).toEqual([
      'calendar-tables-missing',
      'database-locked',
      'database-readonly',
      'empty-db-error',
      'imap-login-failed',
      'imap-unreachable',
    ]);
  });

  it('--gap changes what counts as a long gap', async () => {
    expect((await json(['--gap', '30'])).doc.notes).toEqual([]);
  });

  it('text shows the timeline, the diagnosis with its fixes, and the notes', async () => {
    const ran = await cli(['analyse', 'errors.log'], { cwd: sample });
    expect(ran.stdout).toMatch(/Timeline {2}entries per 1 min, from 2026-11-21T09:59:00\+01:00\n {2}DB +[▁▂▃▄▅▆▇█·]+ {2}17/);
    expect(ran.stdout).toMatch(/Diagnosis\n● Both calendar tables are missing\n {2}13 entries/);
    expect(ran.stdout).toContain('→ Create the tables with');
    // A command stands whole on a line of its own, to be copied.
    expect(ran.stdout).toMatch(/\n {6}bin\/initdb\.sh --dir=plugins\/calendar\/drivers\/database\/SQL\n/);
    expect(ran.stdout).toMatch(/3 {2}alice@example\.test from 198\.51\.100\.23/);
    expect(ran.stdout).toMatch(/Notes.*\n {2}a1b2c3d4 {2}no refresh for 16 min/);
  });
});

describe('explain', () => {
  it('explains a rule with an example', async () => {
    const ran = await cli(['explain', 'pair-order']);
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/^pair-order {2}\(rule, default severity error\)/);
    expect(ran.stdout).toMatch(/Example:\n {2}\[21-Nov-2026 10:01:07 \+0100\]: <3fa9c2d1> DB Error: \[1\] no such table: caldav_calendars/);
  });

  it('explains a diagnosis, and finds one from words of a log line', async () => {
    expect((await cli(['explain', 'database-readonly'])).stdout).toMatch(/^database-readonly {2}\(diagnosis\)\nThe SQLite database is read-only/);
    expect((await cli(['explain', 'Database Is Locked'])).stdout).toMatch(/^database-locked/);
    expect((await cli(['explain', 'no such table: caldav_calendars'])).stdout).toMatch(/^calendar-tables-missing[\s\S]*See also: remote-calendar-table-missing/);
  });

  it('lists the topics, and names a topic it does not know', async () => {
    const list = await cli(['explain']);
    expect(list.stdout).toMatch(/^Rules:\n {2}pair-order/);
    expect(list.stdout).toMatch(/Diagnoses:\n {2}calendar-tables-missing/);
    const unknown = await cli(['explain', 'frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('webmail-log: nothing known about "frobnicate" (webmail-log explain lists the topics)\n');
  });
});
