// The pipeline against a second, plain reading of the SPEC (model.ts) on generated logs:
// every violation (rule, file, line, request id), every count and every request-id row
// must agree. Seeded through fast-check (FC_SEED replays another run).

import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cli, startCli } from '../cli/run.js';
import { check, report } from '../helpers.js';
import { generate } from './generate.js';
import { model, type ModelResult } from './model.js';

/** SPEC §3's default severities. */
const DEFAULTS = {
  'pair-order': 'error',
  'pair-same-second': 'error',
  'pair-incomplete': 'warning',
  chronological: 'error',
  'request-id-format': 'warning',
  'session-consistency': 'warning',
  malformed: 'error',
};

/** What a JSON report says that the model also says. */
function fromJson(doc: { summary: Record<string, unknown>; violations: Record<string, unknown>[]; requestIds: Record<string, unknown>[]; signatures: unknown[] }) {
  const s = doc.summary;
  return {
    counts: [s.lines, s.entries, s.dbErrors, s.otherEntries, s.malformedEntries, s.requestIds, s.refreshLookups, s.refreshPairs],
    violations: doc.violations.map((v) => `${v.rule} ${v.file}:${v.line} ${v.requestId}`),
    rows: doc.requestIds.map((r) => ({ id: r.id, sessionSegments: r.sessionSegments, entries: r.entries, refreshPairs: r.refreshPairs, first: r.first, last: r.last })),
    signatures: doc.signatures,
  };
}

function expected(m: ModelResult, lines: number) {
  return {
    counts: [lines, m.entries, m.dbErrors, m.otherEntries, m.malformedEntries, m.requestIds, m.refreshLookups, m.refreshPairs],
    violations: m.violations.map((v) => `${v.rule} ${v.file}:${v.line} ${v.requestId}`),
    rows: m.rows,
    signatures: m.signatures,
  };
}

function compare(seed: number, size: number): void {
  const g = generate(seed, size);
  const c = check(g.files, { pairWindow: g.window });
  expect(fromJson(JSON.parse(report('json', c))), `seed ${seed}`).toEqual(expected(model(g.entries, g.orphans, g.window), g.lines));
}

describe('the pipeline agrees with a plain reading of the SPEC', () => {
  it('on generated logs: violations, counts and request-id rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 400 }), (seed, size) => compare(seed, size)),
      { numRuns: 300 },
    );
  });

  it('through the built command on files large enough to be read by several threads', async () => {
    const seeds = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 3, seed: Number(process.env.FC_SEED ?? 20261122) });
    for (const seed of seeds) {
      const g = generate(seed, 6000);
      const dir = mkdtempSync(join(tmpdir(), 'webmail-log-oracle-'));
      for (const [name, text] of g.files) writeFileSync(join(dir, name), text);
      // Severities changed as the seed says (SPEC §3): a rule off is not reported; the
      // exit status follows the errors (§4).
      const levels = new Map(Object.entries(DEFAULTS));
      const rules: string[] = [];
      Object.keys(DEFAULTS).forEach((rule, i) => {
        const level = ['off', 'warning', 'error', null, null][(seed >>> (2 * i)) % 5];
        if (level === null) return;
        levels.set(rule, level);
        rules.push('--rule', `${rule}=${level}`);
      });
      const alphabet = (['hex', 'php5', 'php6'] as const)[seed % 3];
      const r = await cli(['analyse', '--format', 'json', '--jobs', '3', '--pair-window', String(g.window), '--request-id-alphabet', alphabet, ...rules, ...g.files.map(([name]) => name)], { cwd: dir });
      expect(r.stderr, `seed ${seed}`).toBe('');
      const m = model(g.entries, g.orphans, g.window, alphabet);
      m.violations = m.violations.filter((v) => levels.get(v.rule) !== 'off');
      const doc = JSON.parse(r.stdout);
      expect(fromJson(doc), `seed ${seed}`).toEqual(expected(m, g.lines));
      expect(doc.violations.map((v: { rule: string; severity: string }) => v.severity), `seed ${seed}`).toEqual(m.violations.map((v) => levels.get(v.rule)));
      const errors = m.violations.filter((v) => levels.get(v.rule) === 'error').length;
      expect(doc.summary.violations, `seed ${seed}`).toEqual({ error: errors, warning: m.violations.length - errors });
      expect(r.status, `seed ${seed}`).toBe(errors > 0 ? 1 : 0);
    }
  }, 60_000);

  it('on a rotation set given in any order: read oldest first, gzip known by content (errors.log.1 is gzip too)', async () => {
    const seeds = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 3, seed: Number(process.env.FC_SEED ?? 20261122) + 2 });
    for (const seed of seeds) {
      const g = generate(seed, 600, 3);
      const names = ['errors.log.2.gz', 'errors.log.1', 'errors.log'];
      const dir = mkdtempSync(join(tmpdir(), 'webmail-log-oracle-'));
      g.files.forEach(([, text], i) => writeFileSync(join(dir, names[i]), i < 2 ? gzipSync(text) : text));
      const rename = <T extends { fileIndex: number; file: string }>(e: T): T => ({ ...e, file: names[e.fileIndex] });
      const r = await cli(['analyse', '--format', 'json', '--pair-window', String(g.window), 'errors.log', 'errors.log.2.gz', 'errors.log.1'], { cwd: dir });
      expect(fromJson(JSON.parse(r.stdout)), `seed ${seed}`).toEqual(expected(model(g.entries.map(rename), g.orphans.map(rename), g.window), g.lines));
    }
  }, 60_000);

  it('following a file as it is written in pieces cut anywhere, as from reading it whole', async () => {
    const [seed] = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 1, seed: Number(process.env.FC_SEED ?? 20261122) + 3 });
    const g = generate(seed, 500, 1);
    const text = g.files[0][1];
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-oracle-'));
    const path = join(dir, 'errors.log');
    writeFileSync(path, '');
    // --flush-after well above the pauses: an entry cut by a pause is not handed on early.
    const live = startCli(['analyse', '--follow', '--from-start', '--flush-after', '5000', '--format', 'json', '--pair-window', String(g.window), path]);
    for (let at = 0, k = 0; at < text.length; k++) {
      const size = 1 + ((seed >>> (k % 16)) + k * 7919) % 4000;
      appendFileSync(path, text.slice(at, at + size));
      at += size;
      await sleep(k % 5 === 0 ? 20 : 1);
    }
    await sleep(300);
    live.child.kill('SIGTERM');
    const done = await live.done;
    const entries = g.entries.map((e) => ({ ...e, file: path }));
    expect(fromJson(JSON.parse(done.stdout)), `seed ${seed}`).toEqual(expected(model(entries, g.orphans.map((o) => ({ ...o, file: path })), g.window), g.lines));
  }, 60_000);

  it('on stdin, where the lines before the first entry are counted and not malformed', async () => {
    const seeds = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 4, seed: Number(process.env.FC_SEED ?? 20261122) + 1 });
    for (const seed of seeds) {
      const g = generate(seed, 400);
      // The first file alone, as `-`, cut by `tail` inside an entry: the two lines of it
      // before the file's own start (and any orphan lines of the file) are no violation.
      const cut = '  FROM caldav_calendars WHERE user_id = 1\n  ORDER BY name) in /x.php on line 578 (POST /cpsess0123456789/?_task=mail&_action=refresh)\n';
      const entries = g.entries.filter((e) => e.fileIndex === 0).map((e) => ({ ...e, file: '-', line: e.line + 2 }));
      const r = await cli(['analyse', '--format', 'json', '--pair-window', String(g.window), '-'], { stdin: cut + g.files[0][1] });
      expect(fromJson(JSON.parse(r.stdout)), `seed ${seed}`).toEqual(expected(model(entries, [], g.window), g.fileLines[0] + 2));
      if (g.files.length < 2) continue;
      // After a file, in one stream: the file's orphan lines are malformed, stdin's are not.
      const dir = mkdtempSync(join(tmpdir(), 'webmail-log-oracle-'));
      writeFileSync(join(dir, g.files[0][0]), g.files[0][1]);
      const both = await cli(['analyse', '--format', 'json', '--pair-window', String(g.window), g.files[0][0], '-'], { cwd: dir, stdin: cut + g.files[1][1] });
      const inOrder = g.entries.filter((e) => e.fileIndex < 2).map((e) => (e.fileIndex === 1 ? { ...e, file: '-', line: e.line + 2 } : e));
      const orphans = g.orphans.filter((o) => o.fileIndex === 0);
      expect(fromJson(JSON.parse(both.stdout)), `seed ${seed}`).toEqual(expected(model(inOrder, orphans, g.window), g.fileLines[0] + g.fileLines[1] + 2));
    }
  }, 60_000);
});
