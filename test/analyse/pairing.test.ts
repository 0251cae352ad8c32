import { describe, expect, it } from 'vitest';
import { Pairing, pairingKey, type Lookup } from '../../src/analyse/pairing.js';
import { Side } from '../../src/parse/table.js';

function machine(window = 30) {
  const events: string[] = [];
  const p = new Pairing(window, {
    incomplete: (l) => events.push(`incomplete ${l.line}`),
    pair: (a, b) => events.push(`pair ${a.line}+${b.line}`),
  });
  let line = 0;
  const feed = (side: Side, instant: number, key = 'id:a') => {
    const l: Lookup = { key, side, instant, fileIndex: 0, line: ++line, requestId: null, segment: null };
    p.advance(instant);
    p.lookup(l);
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

  it('keys by request id, else session segment, else one shared key', () => {
    expect(pairingKey('3fa9c2d1', 'cpsess0123456789')).toBe('id:3fa9c2d1');
    expect(pairingKey(null, 'cpsess0123456789')).toBe('segment:cpsess0123456789');
    expect(pairingKey(null, null)).toBe('none');
    // An id that reads like a segment is still another key.
    expect(pairingKey('cpsess0123456789', null)).not.toBe(pairingKey(null, 'cpsess0123456789'));
  });
});
