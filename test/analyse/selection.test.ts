import { describe, expect, it } from 'vitest';
import { parseWhen, selects, type Selection } from '../../src/analyse/selection.js';
import { check, imap, log, lookup, pair } from '../helpers.js';

const at = (iso: string) => Date.parse(iso) / 1000;
const none: Selection = { since: null, until: null, requestIds: null, segments: null };

describe('parseWhen', () => {
  const now = at('2026-11-21T12:00:00Z');

  it('reads ISO 8601 times and dates', () => {
    expect(parseWhen('2026-11-21T10:00:00+01:00', now)).toBe(at('2026-11-21T09:00:00Z'));
    expect(parseWhen('2026-11-21T09:00:00Z', now)).toBe(at('2026-11-21T09:00:00Z'));
    expect(parseWhen('2026-11-21', now)).toBe(at('2026-11-21T00:00:00Z'));
  });

  it('reads ages before now', () => {
    expect(parseWhen('90s', now)).toBe(now - 90);
    expect(parseWhen('15m', now)).toBe(now - 900);
    expect(parseWhen('15min', now)).toBe(now - 900);
    expect(parseWhen('2h', now)).toBe(now - 7200);
    expect(parseWhen('3d', now)).toBe(now - 3 * 86400);
    expect(parseWhen('1w', now)).toBe(now - 604800);
  });

  it('refuses anything else', () => {
    for (const bad of ['yesterday', '2h ago', '-2h', '', '21-Nov-2026', '2026-13-45']) expect(parseWhen(bad, now), bad).toBeNull();
  });
});

describe('selects', () => {
  it('checks each filter that is set', () => {
    const s: Selection = { since: 100, until: 200, requestIds: new Set(['a']), segments: new Set(['cpsess1111111111']) };
    expect(selects(s, 150, 'a', 'cpsess1111111111')).toBe(true);
    expect(selects(s, 99, 'a', 'cpsess1111111111')).toBe(false);
    expect(selects(s, 201, 'a', 'cpsess1111111111')).toBe(false);
    expect(selects(s, 150, 'b', 'cpsess1111111111')).toBe(false);
    expect(selects(s, 150, null, 'cpsess1111111111')).toBe(false);
    expect(selects(s, 150, 'a', null)).toBe(false);
    expect(selects(s, null, 'a', 'cpsess1111111111')).toBe(false);
    expect(selects(none, null, null, null)).toBe(true);
    expect(selects(null, null, null, null)).toBe(true);
  });
});

describe('filters in the analysis', () => {
  it('never invent an incomplete pair by cutting one in half', () => {
    // The local lookup is before --since, its partner after: the rules pair them.
    const text = log(lookup('09:59:59', 'calendars'), lookup('10:00:00', 'caldav_calendars'), pair('10:01:00'));
    const cut = check(text, { selection: { ...none, since: at('2026-11-21T09:00:00Z') } });
    expect(cut.violations.map((f) => f.rule)).toEqual(['pair-same-second']);
    expect(cut.summary).toMatchObject({ entries: 3, dbErrors: 3, refreshPairs: 2, refreshLookups: { local: 1, remote: 2 } });
  });

  it('report only violations at selected entries, and count only selected entries', () => {
    const text = log(
      imap('10:00:10', { id: 'aaaaaaaa' }),
      imap('10:00:05', { id: 'bbbbbbbb' }),
      lookup('10:01:00', 'calendars', { id: 'aaaaaaaa' }),
      lookup('10:02:00', 'calendars', { id: 'bbbbbbbb' }),
    );
    const all = check(text);
    expect(all.violations.map((f) => `${f.rule}@${f.line}`)).toEqual(['chronological@2', 'pair-incomplete@3', 'pair-incomplete@4']);
    const onlyA = check(text, { selection: { ...none, requestIds: new Set(['aaaaaaaa']) } });
    expect(onlyA.violations.map((f) => `${f.rule}@${f.line}`)).toEqual(['pair-incomplete@3']);
    expect(onlyA.summary).toMatchObject({ entries: 2, otherEntries: 1, dbErrors: 1, violations: { error: 0, warning: 1 } });
    expect(onlyA.summary.requestIds.map((r) => r.id)).toEqual(['aaaaaaaa']);
    expect(onlyA.summary.selection?.requestIds).toEqual(new Set(['aaaaaaaa']));
  });

  it('select by session segment', () => {
    const text = log(pair('10:00:00', { segment: 'cpsess1111111111' }), pair('10:00:30', { id: 'bbbbbbbb', segment: 'cpsess2222222222' }));
    const c = check(text, { selection: { ...none, segments: new Set(['cpsess2222222222']) } });
    expect(c.summary).toMatchObject({ entries: 2, refreshPairs: 1 });
    expect(c.summary.requestIds.map((r) => r.id)).toEqual(['bbbbbbbb']);
  });

  it('leave out what has no time, id or segment: text before the first entry, bad headers', () => {
    const text = log('stray', '[32-Nov-2026 10:00:00 +0100]: <aaaaaaaa> bad', imap('10:00:00', { id: 'aaaaaaaa' }));
    expect(check(text).violations.map((f) => f.line)).toEqual([1, 2]);
    expect(check(text, { selection: { ...none, since: 0 } }).violations).toEqual([]);
    expect(check(text, { selection: { ...none, requestIds: new Set(['aaaaaaaa']) } }).violations.map((f) => f.line)).toEqual([2]);
  });

  it('count every line whatever is selected', () => {
    const text = log(pair('10:00:00'), pair('11:00:00'));
    const s = check(text, { selection: { ...none, until: 0 } }).summary;
    expect(s).toMatchObject({ lines: 4, entries: 0 });
    expect(s.requestIds.length).toBe(0);
  });
});
