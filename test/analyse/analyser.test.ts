import { describe, expect, it } from 'vitest';
import { duration } from '../../src/analyse/analyser.js';
import type { PackedRows } from '../../src/analyse/retired.js';
import { renderJson } from '../../src/report/json.js';
import { reportText } from '../../src/report/reporter.js';
import { FORMATS, REPORTERS } from '../../src/report/registry.js';
import { ROW_WARMING } from '../../src/report/row-bytes.js';
import { check, ID, imap, log, lookup, pair, SEG, SRC, where } from '../helpers.js';

describe('pair-order and pair-same-second', () => {
  it('find nothing in a clean log', () => {
    const c = check(log(pair('10:00:07'), pair('10:01:07'), pair('10:02:08')));
    expect(where(c)).toEqual([]);
    expect(c.summary.refreshPairs).toBe(3);
  });

  it('report a remote lookup before the local one at the local one', () => {
    const c = check(log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars')));
    expect(where(c)).toEqual(['pair-order@2']);
    expect(c.violations[0]).toMatchObject({ severity: 'error', requestId: ID, file: 'errors.log' });
    expect(c.violations[0].message).toContain('line 1');
  });

  it('report a pair split across seconds at its second lookup', () => {
    const c = check(log(lookup('10:00:07', 'calendars'), lookup('10:00:08', 'caldav_calendars')));
    expect(where(c)).toEqual(['pair-same-second@2']);
  });

  it('can both break one pair', () => {
    const c = check(log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:09', 'calendars')));
    expect(where(c)).toEqual(['pair-order@2', 'pair-same-second@2']);
  });

  it('compare instants: the same second at two offsets is one second', () => {
    const c = check(log(lookup('25-Oct-2026 02:00:07 +0200', 'calendars'), lookup('25-Oct-2026 01:00:07 +0100', 'caldav_calendars')));
    expect(where(c)).toEqual([]);
  });
});

describe('pair-incomplete', () => {
  it('reports a lookup whose partner never comes, at the end', () => {
    const c = check(log(pair('10:00:07'), lookup('10:01:07', 'calendars')));
    expect(where(c)).toEqual(['pair-incomplete@3']);
    expect(c.violations[0].severity).toBe('warning');
  });

  it('reports a lookup replaced by one of its own side', () => {
    const c = check(log(lookup('10:00:07', 'calendars'), pair('10:00:08')));
    expect(where(c)).toEqual(['pair-incomplete@1']);
  });

  it('reports a lookup left pending more than the window', () => {
    const c = check(log(lookup('10:00:07', 'calendars'), lookup('10:00:38', 'caldav_calendars')));
    expect(where(c)).toEqual(['pair-incomplete@1', 'pair-incomplete@2']);
    const wide = check(log(lookup('10:00:07', 'calendars'), lookup('10:00:38', 'caldav_calendars')), { pairWindow: 60 });
    expect(where(wide)).toEqual(['pair-same-second@2']);
  });

  it('pairs per request id, interleaved sessions included', () => {
    const a = { id: 'aaaaaaaa' };
    const b = { id: 'bbbbbbbb' };
    const c = check(log(lookup('10:00:07', 'calendars', a), lookup('10:00:07', 'calendars', b), lookup('10:00:07', 'caldav_calendars', b), lookup('10:00:07', 'caldav_calendars', a)));
    expect(where(c)).toEqual([]);
    expect(c.summary.requestIds.map((r) => r.refreshPairs)).toEqual([1, 1]);
  });

  it('pairs lookups without a request id by session segment, and those with neither together', () => {
    const noId = { id: null };
    const c = check(
      log(
        lookup('10:00:07', 'calendars', { id: null, segment: 'cpsess1111111111' }),
        lookup('10:00:07', 'calendars', { id: null, segment: 'cpsess2222222222' }),
        lookup('10:00:07', 'caldav_calendars', { id: null, segment: 'cpsess1111111111' }),
        lookup('10:00:07', 'caldav_calendars', { id: null, segment: 'cpsess2222222222' }),
        lookup('10:00:08', 'calendars', { id: null, segment: null }),
        lookup('10:00:08', 'caldav_calendars', { ...noId, segment: null }),
      ),
    );
    expect(where(c)).toEqual([]);
    expect(c.summary.refreshPairs).toBe(3);
  });

  it('is not moved forward by a malformed entry', () => {
    const c = check(log(lookup('10:00:07', 'calendars'), '[21-Nov-2026 11:00:00 +9900]: late and bad', lookup('10:00:07', 'caldav_calendars')));
    expect(where(c)).toEqual(['malformed@2']);
    expect(c.summary.refreshPairs).toBe(1);
  });

  it('carries pending lookups across files', () => {
    const c = check([
      ['errors.log.1', log(lookup('10:00:07', 'calendars'))],
      ['errors.log', log(lookup('10:00:07', 'caldav_calendars'))],
    ]);
    expect(where(c)).toEqual([]);
    expect(c.summary.refreshPairs).toBe(1);
  });
});

describe('chronological', () => {
  it('reports an entry earlier than the one before it, only that one', () => {
    const c = check(log(imap('10:00:10'), imap('10:00:05'), imap('10:00:06'), imap('10:00:06')));
    expect(where(c)).toEqual(['chronological@2']);
  });

  it('skips malformed entries: they are not the entry before', () => {
    const c = check(log(imap('10:00:10'), '[32-Nov-2026 23:00:00 +0100]: bad', imap('10:00:11')));
    expect(where(c)).toEqual(['malformed@2']);
  });

  it('carries across files', () => {
    const c = check([
      ['a.log', log(imap('10:00:10'))],
      ['b.log', log(imap('10:00:05'))],
    ]);
    expect(c.violations.map((f) => `${f.rule}@${f.file}:${f.line}`)).toEqual(['chronological@b.log:1']);
    expect(c.violations[0].message).toContain('a.log:1');
  });

  it('knows a DST fall-back is not a step back', () => {
    const c = check(log(pair('25-Oct-2026 02:59:07 +0200'), pair('25-Oct-2026 02:00:07 +0100')));
    expect(where(c)).toEqual([]);
  });
});

describe('request-id-format', () => {
  it('reports each distinct id that is not 8 lowercase hex characters once, at its first entry', () => {
    const c = check(log(imap('10:00:01', { id: 'ns0tbuc0' }), imap('10:00:02', { id: 'ns0tbuc0' }), imap('10:00:03', { id: '3FA9C2D1' }), imap('10:00:04', { id: '3fa9c2d1' }), imap('10:00:05', { id: '3fa9c2d' })));
    expect(where(c)).toEqual(['request-id-format@1', 'request-id-format@3', 'request-id-format@5']);
  });

  it('treats ids as written: two spellings are two ids', () => {
    const c = check(log(imap('10:00:01', { id: '3FA9C2D1' }), imap('10:00:02', { id: '3fa9c2d1' })));
    expect(c.summary.requestIds.map((r) => r.id)).toEqual(['3FA9C2D1', '3fa9c2d1']);
  });
});

describe('session-consistency', () => {
  it('reports each further segment once, at its first entry', () => {
    const c = check(
      log(
        imap('10:00:01', { segment: 'cpsess1111111111' }),
        imap('10:00:02', { segment: 'cpsess2222222222' }),
        imap('10:00:03', { segment: 'cpsess2222222222' }),
        imap('10:00:04', { segment: 'cpsess1111111111' }),
        imap('10:00:05', { segment: 'cpsess3333333333' }),
      ),
    );
    expect(where(c)).toEqual(['session-consistency@2', 'session-consistency@5']);
    expect(c.summary.requestIds.at(0)!.sessionSegments).toEqual(['cpsess1111111111', 'cpsess2222222222', 'cpsess3333333333']);
  });

  it('ignores entries without a segment, and entries without an id', () => {
    const c = check(log(imap('10:00:01', { segment: null }), imap('10:00:02'), imap('10:00:03', { segment: null }), imap('10:00:04', { id: null, segment: 'cpsess9999999999' })));
    expect(where(c)).toEqual([]);
    expect(c.summary.requestIds.at(0)!.sessionSegments).toEqual([SEG]);
  });

  it('uses the request at the end of any kind of entry', () => {
    const text = log(
      `[21-Nov-2026 10:00:01 +0100]: <${ID}> Successful login for alice (POST /cpsess1111111111/3rdparty/roundcube/index.php?_task=login)`,
      `[21-Nov-2026 10:00:02 +0100]: <${ID}> PHP Error: x in y on line 3 (GET /cpsess2222222222/3rdparty/roundcube/index.php)`,
    );
    expect(where(check(text))).toEqual(['session-consistency@2']);
  });
});

describe('malformed', () => {
  it('reports an entry start with an invalid timestamp or zone', () => {
    const c = check(log(imap('10:00:01'), '[31-Jun-2026 10:00:02 +0100]: x', '[21-Nov-2026 10:00:03 Mars/Olympus] x', imap('10:00:04')));
    expect(where(c)).toEqual(['malformed@2', 'malformed@3']);
    expect(c.summary.malformedEntries).toBe(2);
  });

  it('reports a DB Error entry without the shape, and takes it out of every count', () => {
    const c = check(log(`[21-Nov-2026 10:00:01 +0100]: <aaaaaaaa> DB Error: connection lost (POST /${SEG}/x?_task=mail&_action=refresh)`));
    expect(where(c)).toEqual(['malformed@1']);
    expect(c.violations[0].requestId).toBe('aaaaaaaa');
    expect(c.summary).toMatchObject({ entries: 1, dbErrors: 0, malformedEntries: 1, signatures: [] });
    expect(c.summary.requestIds.length).toBe(0);
  });

  it('takes a DB Error entry whose tail is on a continuation line', () => {
    const c = check(log(`[21-Nov-2026 10:00:01 +0100]: <${ID}> DB Error: [1] no such table: calendars (SQL Query: SELECT *`, '  FROM calendars', `) in ${SRC} on line 578 (POST /${SEG}/x/index.php?_task=mail&_action=refresh)`, lookup('10:00:01', 'caldav_calendars')));
    expect(where(c)).toEqual([]);
    expect(c.summary.refreshPairs).toBe(1);
  });

  it('reports text before the first entry once per run, blank lines splitting runs, not counted as entries', () => {
    const c = check(log('garbage', 'more', '', '   ', 'again', imap('10:00:01'), 'continuation, not malformed'));
    expect(where(c)).toEqual(['malformed@1', 'malformed@5']);
    expect(c.summary).toMatchObject({ lines: 7, entries: 1, malformedEntries: 0 });
  });

  it('reports text before the first entry of every file', () => {
    const c = check([
      ['a.log', log(imap('10:00:01'))],
      ['b.log', log('stray', imap('10:00:02'))],
    ]);
    expect(c.violations.map((f) => `${f.file}:${f.line}`)).toEqual(['b.log:1']);
  });
});

describe('severities', () => {
  it('can be changed per rule, and off leaves a rule out of list and counts', () => {
    const text = log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'), lookup('10:01:07', 'calendars'));
    const c = check(text, { severities: { 'pair-order': 'warning', 'pair-incomplete': 'off' } });
    expect(c.violations.map((f) => `${f.rule}:${f.severity}`)).toEqual(['pair-order:warning']);
    expect(c.summary.violations).toEqual({ error: 0, warning: 1 });
  });
});

describe('aggregates', () => {
  it('keep entries = dbErrors + otherEntries + malformedEntries', () => {
    const c = check(log('x', pair('10:00:01'), imap('10:00:02'), '[21-Nov-2026 10:00:03 UTC] PHP Warning:  x', '[99-Nov-2026 10:00:03 +0100]: x', '[21-Nov-2026 10:00:04 +0100]: DB Error: bad'));
    const s = c.summary;
    expect(s.entries).toBe(6);
    expect(s.dbErrors + s.otherEntries + s.malformedEntries).toBe(s.entries);
    expect([s.dbErrors, s.otherEntries, s.malformedEntries]).toEqual([2, 2, 2]);
    expect(s.lines).toBe(7);
  });

  it('list request ids in order of first appearance with earliest and latest instants', () => {
    const c = check(log(imap('10:00:05', { id: 'bbbbbbbb' }), imap('10:00:09'), imap('10:00:01'), imap('10:00:03', { id: 'bbbbbbbb' })));
    expect(c.summary.requestIds.map((r) => [r.id, r.entries, r.first, r.last])).toEqual([
      ['bbbbbbbb', 2, '2026-11-21T10:00:03+01:00', '2026-11-21T10:00:05+01:00'],
      [ID, 2, '2026-11-21T10:00:01+01:00', '2026-11-21T10:00:09+01:00'],
    ]);
  });

  it('write first and last with the offset of their entry, the first in stream order on a tie', () => {
    const c = check(log(imap('10:00:00'), lookup('25-Oct-2026 02:00:00 +0100', 'calendars').replace('+0100', '+0000').replace('02:00:00', '01:00:00'), imap('10:00:00')));
    // 21-Nov 10:00 +0100 = 09:00Z; the middle entry is 25-Oct 01:00 +0000.
    expect(c.summary.requestIds.at(0)!.first).toBe('2026-10-25T01:00:00+00:00');
    const tie = check(log(lookup('21-Nov-2026 10:00:00 +0100', 'calendars'), lookup('21-Nov-2026 09:00:00 +0000', 'caldav_calendars')));
    expect([tie.summary.requestIds.at(0)!.first, tie.summary.requestIds.at(0)!.last]).toEqual(['2026-11-21T10:00:00+01:00', '2026-11-21T10:00:00+01:00']);
  });

  it('count signatures per code and message for DB errors and per kind for others, sorted', () => {
    const c = check(
      log(
        pair('10:00:01'),
        lookup('10:01:01', 'calendars'),
        imap('10:01:02'),
        `[21-Nov-2026 10:01:03 +0100]: <${ID}> DB Error: [HY000] database is locked (SQL Query: x) in ${SRC} on line 1 (POST /x)`,
        `[21-Nov-2026 10:01:04 +0100]: <${ID}> DB Error: []  (SQL Query: ) in ${SRC} on line 578 (GET /${SEG}/3rdparty/roundcube/index.php)`,
        '[21-Nov-2026 10:01:05 UTC] PHP Warning:  x',
        '[21-Nov-2026 10:01:06 UTC] PHP Fatal error:  y',
        '[21-Nov-2026 10:01:07 UTC] just text',
      ),
    );
    expect(c.summary.signatures).toEqual([
      { kind: 'DB', code: '1', message: 'no such table: calendars', count: 2 },
      { kind: 'PHP', code: null, message: null, count: 2 },
      { kind: 'DB', code: '', message: '', count: 1 },
      { kind: 'DB', code: '1', message: 'no such table: caldav_calendars', count: 1 },
      { kind: 'DB', code: 'HY000', message: 'database is locked', count: 1 },
      { kind: 'IMAP', code: null, message: null, count: 1 },
      { kind: 'text', code: null, message: null, count: 1 },
    ]);
  });

  it('count refresh lookups by side and pairs in all and per id', () => {
    const c = check(log(pair('10:00:01'), lookup('10:01:01', 'caldav_calendars')));
    expect(c.summary.refreshLookups).toEqual({ local: 1, remote: 2 });
    expect(c.summary.refreshPairs).toBe(1);
    expect(c.summary.requestIds.at(0)!.refreshPairs).toBe(1);
  });

  it('do not count an entry without a space after its id token as having an id', () => {
    const c = check(log(`[21-Nov-2026 10:00:01 +0100]: <${ID}>DB Error: x`, '[21-Nov-2026 10:00:02 +0100]: <> text'));
    expect([...c.summary.requestIds]).toEqual([]);
    expect(c.summary.signatures.map((s) => s.kind)).toEqual(['text']);
  });
});

describe('violations', () => {
  it('are ordered by file, line, then the order of the rules table', () => {
    const c = check([
      ['a.log', log(imap('10:00:10', { id: 'BAD' }), lookup('10:00:05', 'caldav_calendars', { id: 'BAD' }), lookup('10:00:05', 'calendars', { id: 'BAD' }))],
      ['b.log', log('stray', imap('10:00:01'))],
    ]);
    expect(c.violations.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual([
      'a.log:1:request-id-format',
      'a.log:2:chronological',
      'a.log:3:pair-order',
      'b.log:1:malformed',
      'b.log:2:chronological',
    ]);
  });

  it('are the same whatever the chunking of the input', () => {
    const text = log('junk', pair('10:00:01'), lookup('10:00:02', 'caldav_calendars'), `[21-Nov-2026 10:00:03 +0100]: <${ID}> DB Error: [1] x (SQL Query: a`, 'b) in f on line 1 (POST /x)', imap('09:00:00'));
    const whole = check(text);
    for (const chunk of [1, 5, 13, 100]) expect(check(text, { chunk })).toEqual(whole);
  });

  it('write durations for people', () => {
    expect([duration(2), duration(60), duration(3580), duration(7200), duration(7260)]).toEqual(['2 s', '1 min', '59 min 40 s', '2 h', '2 h 1 min']);
  });
});

describe('row warming', () => {
  // 110 ids, one refresh each, a second apart: with ids packed at once, the first 100
  // (the timeline's) stay as they are and the rest are packed as they come.
  const ids = Array.from({ length: 110 }, (_, i) => (0x3fa90000 + i).toString(16));
  const text = log(...ids.map((id, i) => pair(`10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, { id })));
  const retire = { afterSeconds: 0, keep: 0, every: 1 };

  it('runs once, past `after` packed ids, over the first listed packed ids, and changes no finding', () => {
    const calls: string[][] = [];
    const warmRows = {
      after: 4,
      rows: 3,
      write(packed: PackedRows) {
        calls.push(Array.from(packed.places, (p) => packed.rows.idAt(p)));
        ROW_WARMING.write(packed);
      },
    };
    const warmed = check(text, { retire, warmRows });
    expect(warmed.violations).toEqual([]);
    expect(warmed.summary.requestIds.length).toBe(110);
    expect(calls).toEqual([ids.slice(100, 103)]);
    const cold = check(text, { retire });
    expect(reportText(renderJson(warmed.summary, warmed.violations, 'h'))).toBe(reportText(renderJson(cold.summary, cold.violations, 'h')));
  });

  it('hands the writer the kind of array of places the report hands it', () => {
    // Another kind (the report's once was the analyser's list of ids and states) threw the
    // writer's compiled code away at the report's first row.
    const kinds: string[] = [];
    const warmRows = { after: 4, rows: 3, write: (packed: PackedRows) => kinds.push(Object.prototype.toString.call(packed.places)) };
    const warmed = check(text, { retire, warmRows });
    kinds.push(Object.prototype.toString.call(warmed.summary.requestIds.packed()!.places));
    expect(kinds).toEqual(['[object Int32Array]', '[object Int32Array]']);
  });

  it('does not run on a log of fewer packed ids', () => {
    let runs = 0;
    check(text, { retire, warmRows: { after: 11, rows: 3, write: () => runs++ } });
    expect(runs).toBe(0);
  });

  it('is asked for by the reports that write rows from packed ids, and by no other', () => {
    const warming = FORMATS.filter((f) => REPORTERS[f].warmRows !== undefined);
    expect(warming).toEqual(['json', 'ndjson']);
  });
});
