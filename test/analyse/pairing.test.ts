import { describe, expect, it } from 'vitest';
import { Pairing, Slot, type Lookup } from '../../src/analyse/pairing.js';
import { check, log, lookup, where } from '../helpers.js';
import { Side } from '../../src/parse/table.js';

function machine(window = 30) {
  const events: string[] = [];
  const p = new Pairing(window, {
    incomplete: (l) => events.push(`incomplete ${l.line}`),
    pair: (a, b) => events.push(`pair ${a.line}+${b.line}`),
  });
  let line = 0;
  const slots = new Map<string, Slot>();
  const feed = (side: Side, instant: number, key = 'id:a') => {
    const l: Lookup = { side, instant, fileIndex: 0, line: ++line, requestId: null, segment: null };
    p.advance(instant);
    if (!slots.has(key)) slots.set(key, new Slot());
    p.lookup(l, slots.get(key) as Slot);
  };
  return { p, events, feed, next: (instant: number) => (line++, p.advance(instant)) };
}

describe('pairing', () => {
  it('pairs a local lookup with the remote one after it', () => {
    const m = machine();
    m.feed(Side.Local, 100);
    m.feed(Side.Remote, 100);
    m.p.finish();
    expect(m.events).toEqual(['pair 1+2']);
  });

  it('pairs a remote lookup with a local one after it (the rules judge the order)', () => {
    const m = machine();
    m.feed(Side.Remote, 100);
    m.feed(Side.Local, 100);
    expect(m.events).toEqual(['pair 1+2']);
  });

  it('gives up a pending lookup when one of the same side comes', () => {
    const m = machine();
    m.feed(Side.Local, 100);
    m.feed(Side.Local, 101);
    m.feed(Side.Remote, 101);
    expect(m.events).toEqual(['incomplete 1', 'pair 2+3']);
  });

  it('keeps a lookup pending exactly W seconds, not more', () => {
    const m = machine(30);
    m.feed(Side.Local, 100);
    m.next(130);
    expect(m.events).toEqual([]);
    m.next(131);
    expect(m.events).toEqual(['incomplete 1']);
  });

  it('lets any well-formed entry move time forward, not only lookups', () => {
    const m = machine(30);
    m.feed(Side.Local, 100);
    m.next(200); // an IMAP error, say
    m.feed(Side.Remote, 200);
    m.p.finish();
    expect(m.events).toEqual(['incomplete 1', 'incomplete 3']);
  });

  it('is not moved by an earlier instant', () => {
    const m = machine(30);
    m.feed(Side.Local, 100);
    m.next(10);
    m.feed(Side.Remote, 120);
    expect(m.events).toEqual(['pair 1+3']);
  });

  it('keeps one pending lookup per key', () => {
    const m = machine();
    m.feed(Side.Local, 100, 'id:a');
    m.feed(Side.Local, 100, 'id:b');
    m.feed(Side.Remote, 100, 'id:b');
    m.feed(Side.Remote, 100, 'id:a');
    expect(m.events).toEqual(['pair 2+3', 'pair 1+4']);
  });

  it('gives up everything pending at the end', () => {
    const m = machine();
    m.feed(Side.Local, 100, 'id:a');
    m.feed(Side.Remote, 100, 'id:b');
    m.p.finish();
    expect(m.events.sort()).toEqual(['incomplete 1', 'incomplete 2']);
  });

  it('keys by request id, else session segment, else one shared key (through the checker)', () => {
    const at = (t: string, table: 'calendars' | 'caldav_calendars', id: string | null, segment: string | null) => lookup(t, table, { id, segment });
    // Same id, other segments: one key. Same segment, no id: one key.
    expect(where(check(log(at('10:00:00', 'calendars', 'aaaaaaaa', 'cpsess1111111111'), at('10:00:00', 'caldav_calendars', 'aaaaaaaa', 'cpsess2222222222'))))).toEqual([
      'session-consistency@2',
    ]);
    expect(where(check(log(at('10:00:00', 'calendars', null, 'cpsess1111111111'), at('10:00:00', 'caldav_calendars', null, 'cpsess1111111111'))))).toEqual([]);
    expect(where(check(log(at('10:00:00', 'calendars', null, null), at('10:00:00', 'caldav_calendars', null, null))))).toEqual([]);
    // An id that reads like a segment is still another key than that segment.
    expect(where(check(log(at('10:00:00', 'calendars', 'cpsess1111111111', null), at('10:00:00', 'caldav_calendars', null, 'cpsess1111111111'))))).toEqual([
      'pair-incomplete@1',
      'request-id-format@1',
      'pair-incomplete@2',
    ]);
  });
});
