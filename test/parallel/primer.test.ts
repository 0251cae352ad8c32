// The primer: read by each thread before a large log, so that V8 has seen every path run
// before it optimises (src/parallel/primer.ts). It must hold every shape, and leave no
// trace in the stream it is run for.

import { describe, expect, it, vi } from 'vitest';
import { REFRESH_ROWS } from '../../src/analyse/analyser.js';
import { RetiredIds } from '../../src/analyse/retired.js';
import { RULE_IDS, severities } from '../../src/analyse/rules.js';
import type { Violation } from '../../src/analyse/violation.js';
import { primeParsing, primeReading, sessionsPrimer } from '../../src/parallel/primer.js';
import { StreamChecker } from '../../src/pipeline.js';
import { log, pair, imap } from '../helpers.js';

const settings = { pairWindow: 1, severities: severities({}) };

describe('the primer', () => {
  it('breaks every rule and holds every kind of entry, read either way', () => {
    const violations: Violation[] = [];
    const checker = new StreamChecker(settings, (v) => violations.push(v));
    primeReading(checker.addFile('primer'));
    const summary = checker.finish();
    // Read three times: straight, as this thread's records, as a worker's.
    expect(new Set(violations.map((v) => v.rule))).toEqual(new Set(RULE_IDS));
    expect(new Set(summary.signatures.map((s) => s.kind))).toEqual(new Set(['DB', 'IMAP', 'SMTP', 'PHP', 'text']));
    expect(summary.malformedEntries % 3).toBe(0);
    expect(summary.malformedEntries).toBeGreaterThanOrEqual(3 * 3);
    // A worker's records: each entry once, and the text before the first entry.
    expect(primeParsing().count).toBe(summary.entries / 3 + 1);
  });

  it("takes the paths a long log takes once under way: a gap of minutes, an entry before its id's first, a lone lookup given up while a younger one waits", () => {
    const violations: Violation[] = [];
    const checker = new StreamChecker({ ...settings, pairWindow: 30 }, (v) => violations.push(v));
    primeReading(checker.addFile('primer'), 30);
    const summary = checker.finish();
    expect(summary.notes.some((n) => n.requestId === 'f00df00d' && n.seconds === 600)).toBe(true);
    expect(violations.some((v) => v.rule === 'chronological' && v.requestId === 'f00df00d')).toBe(true);
    // The older lookup given up alone: one look gives up the younger first (it looks from
    // the last pending lookup back), so this order says the younger one was kept waiting.
    const given = violations.filter((v) => v.rule === 'pair-incomplete' && (v.requestId === 'a0a0a0a0' || v.requestId === 'b0b0b0b0'));
    expect(given.slice(0, 2).map((v) => v.requestId)).toEqual(['a0a0a0a0', 'b0b0b0b0']);
  });

  it('packs dozens of ids and takes each back, for a stream that packs them when idle', () => {
    // V8 keeps no feedback over a function's first calls: a path taken once or twice while
    // priming counts for nothing, so the sessions primer takes each dozens of times.
    const put = vi.spyOn(RetiredIds.prototype, 'put');
    const take = vi.spyOn(RetiredIds.prototype, 'take');
    try {
      const checker = new StreamChecker({ ...settings, retire: { afterSeconds: 0, keep: 0, every: 1 } }, () => {});
      const feed = checker.addFile('primer');
      feed.push(Buffer.from(sessionsPrimer(REFRESH_ROWS)));
      feed.end();
      const summary = checker.finish();
      const back = take.mock.results.filter((r) => r.value !== null).length;
      expect(back).toBeGreaterThanOrEqual(32);
      // Packed again after coming back, and every id listed: the first ones and those.
      expect(put.mock.calls.length).toBeGreaterThanOrEqual(2 * back);
      expect(summary.requestIds.length).toBe(REFRESH_ROWS + back);
      expect(summary.refreshPairs).toBe(REFRESH_ROWS + 2 * back);
    } finally {
      put.mockRestore();
      take.mockRestore();
    }
  });

  it('leaves no trace in the stream it is run for', () => {
    const text = log(...pair('10:00:00'), imap('10:00:01'), ...pair('10:01:00', { id: 'NOT-HEX' }));
    const run = (primed: boolean) => {
      const violations: Violation[] = [];
      const checker = new StreamChecker(settings, (v) => violations.push(v));
      if (primed) checker.prime();
      const feed = checker.addFile('errors.log');
      feed.push(Buffer.from(text));
      feed.end();
      return JSON.stringify({ summary: checker.finish(), violations });
    };
    expect(run(true)).toBe(run(false));
  });
});
