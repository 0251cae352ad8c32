// Whoever parses a chunk — a worker, this thread straight into the feed, or this thread
// ahead into records — the analyser sees the same entries. Which one does is decided by
// timing, so the test fixes the plan and gives each kind of owner every position. The
// modules come from dist/: a worker thread loads built JavaScript (npm test builds first).

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recurringIdsLog } from '../helpers.js';
// @ts-expect-error built JavaScript, without declarations in the test project
import { AHEAD, HERE, chunkStarts, readInParallel, readsInParallel } from '../../dist/parallel/read.js';
// @ts-expect-error built JavaScript
import { Parsers } from '../../dist/parallel/parsers.js';
// @ts-expect-error built JavaScript
import { StreamChecker } from '../../dist/pipeline.js';
// @ts-expect-error built JavaScript
import { renderJson } from '../../dist/report/json.js';
// @ts-expect-error built JavaScript
import { reportText } from '../../dist/report/reporter.js';
// @ts-expect-error built JavaScript
import { severities } from '../../dist/analyse/rules.js';

/** The log of these tests: 700 KB unless said. */
const buildLog = (bytes = 700_000) => recurringIdsLog(bytes);

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-plan-'));
const path = join(dir, 'big.log');
const text = buildLog();
writeFileSync(path, text);

/** The JSON of one reading (no plan), or of a parallel one: each chunk's owner fixed by `plan`, or decided as the reading goes. */
async function report(jobs: number, plan?: ((k: number) => number) | 'as it goes', file = { path, text }): Promise<string> {
  const { path, text } = file;
  const violations: unknown[] = [];
  const checker = new StreamChecker({ pairWindow: 1, severities: severities({}) }, (v: unknown) => violations.push(v));
  const feed = checker.addFile('big.log');
  if (plan === undefined) {
    feed.push(Buffer.from(text));
    feed.end();
  } else {
    const fd = openSync(path, 'r');
    try {
      await readInParallel(path, fd, text.length, jobs, feed, new AbortController().signal, undefined, plan === 'as it goes' ? undefined : plan);
    } finally {
      closeSync(fd);
    }
  }
  return reportText(renderJson(checker.finish(), violations, 'h'));
}

describe('chunk owners', () => {
  it('give the same report as one reading, in any mix', async () => {
    const chunks = chunkStarts(text.length, 3).length - 1;
    expect(chunks).toBeGreaterThan(8);
    const single = await report(1);
    expect(JSON.parse(single).summary.violations.error).toBeGreaterThan(0);
    const plans: [string, (k: number) => number][] = [
      ['all here', () => HERE],
      ['all ahead', () => AHEAD],
      ['all workers', (k) => k % 2],
      ['mixed', (k) => [HERE, 0, AHEAD, 1, AHEAD, HERE, 0, 0, AHEAD][k % 9]],
    ];
    for (const [name, plan] of plans) expect(await report(3, plan), name).toBe(single);
  });

  it('give the same report with chunks of several sizes, the last ones finer', async () => {
    // 6 MB with 2 threads: chunks of 750 KB, down to 94 KB over the last 6 × 750 KB.
    const text = buildLog(6_000_000);
    const file = { path: join(dir, 'bigger.log'), text };
    writeFileSync(file.path, text);
    const starts = chunkStarts(text.length, 2);
    const lengths = new Set(starts.slice(1).map((s: number, i: number) => s - starts[i]));
    expect(lengths.size).toBeGreaterThan(4);
    const single = await report(1, undefined, file);
    expect(await report(2, (k) => [0, AHEAD, HERE][k % 3], file)).toBe(single);
    // Owners decided as the reading goes, as a run decides them.
    expect(await report(2, 'as it goes', file)).toBe(single);
  });
});

/** The JSON of files read as one stream: each by one reading, or each by the same workers (`parsers`) with owners decided as the reading goes. */
async function streamReport(files: { path: string; text: string }[], parsers?: unknown, signals?: AbortSignal[]): Promise<string> {
  const violations: unknown[] = [];
  const checker = new StreamChecker({ pairWindow: 1, severities: severities({}) }, (v: unknown) => violations.push(v));
  for (const [i, { path, text }] of files.entries()) {
    const feed = checker.addFile(path);
    if (parsers === undefined) {
      feed.push(Buffer.from(text));
      feed.end();
      continue;
    }
    const fd = openSync(path, 'r');
    try {
      await readInParallel(path, fd, text.length, 2, feed, signals?.[i] ?? new AbortController().signal, undefined, undefined, path, parsers);
    } finally {
      closeSync(fd);
    }
  }
  return reportText(renderJson(checker.finish(), violations, 'h'));
}

describe("the run's workers", () => {
  it('read every large file of a run, their string tables carried from one file to the next', async () => {
    // Three files of one rotation set; the same request ids run through them, so the
    // workers' tables number a string in the first file that the later ones repeat.
    const files = [0, 1, 2].map((i) => ({ path: join(dir, `rot.log.${i}`), text: buildLog(1_500_000 + i * 100_000) }));
    for (const f of files) writeFileSync(f.path, f.text);
    const single = await streamReport(files);
    const parsers = new Parsers(1);
    const [worker] = parsers.workers;
    try {
      expect(await streamReport(files, parsers)).toBe(single);
      expect(parsers.usable).toBe(true);
      expect(parsers.workers[0]).toBe(worker);
      // Again: the tables go on from where the first run through them left them.
      expect(await streamReport(files, parsers)).toBe(single);
      expect(parsers.usable).toBe(true);
    } finally {
      await parsers.close();
    }
    expect(parsers.usable).toBe(false);
  });

  it('are closed by a reading stopped midway, and a closed set is not used again', async () => {
    const file = { path: join(dir, 'stopped.log'), text: buildLog(1_500_000) };
    writeFileSync(file.path, file.text);
    const parsers = new Parsers(1);
    const stop = new AbortController();
    stop.abort();
    await streamReport([file], parsers, [stop.signal]);
    expect(parsers.usable).toBe(false);
    // Given a closed set, a reading starts workers of its own and gives the same report.
    expect(await streamReport([file], parsers)).toBe(await streamReport([file]));
  });

  it('are started for a run whose files hold enough in all, each file of more than one chunk', () => {
    const MB = 1_000_000;
    expect(readsInParallel(300 * MB, 300 * MB, 2, 200 * MB)).toBe(true);
    // A rotation set of files below the mark each.
    expect(readsInParallel(100 * MB, 1000 * MB, 2, 200 * MB)).toBe(true);
    expect(readsInParallel(100 * MB, 100 * MB, 2, 200 * MB)).toBe(false);
    expect(readsInParallel(300 * MB, 300 * MB, 1, 200 * MB)).toBe(false);
    // An explicit --jobs: any file of more than one chunk.
    expect(readsInParallel(200_000, 200_000, 2, 0)).toBe(true);
    expect(readsInParallel(65_536, 65_536, 2, 0)).toBe(false);
  });
});

describe('records handed between threads', () => {
  it('detach no buffer: the first detach in a thread throws away its optimised code', () => {
    // V8 traces the invalidation on stdout. Every function reading a Buffer depends on no
    // ArrayBuffer ever having been detached (a transfer detaches one), and on 1 GB all of
    // them were compiled again in each thread (records.ts).
    const script = join(dir, 'handover.mjs');
    const dist = new URL('../../dist/', import.meta.url).href;
    writeFileSync(
      script,
      `import { openSync } from 'node:fs';
       const { readInParallel, HERE } = await import('${dist}parallel/read.js');
       const { StreamChecker } = await import('${dist}pipeline.js');
       const { severities } = await import('${dist}analyse/rules.js');
       const checker = new StreamChecker({ pairWindow: 1, severities: severities({}) }, () => {});
       const feed = checker.addFile('big.log');
       await readInParallel(${JSON.stringify(path)}, openSync(${JSON.stringify(path)}, 'r'), ${text.length}, 2, feed, new AbortController().signal, undefined, (k) => (k === 0 ? HERE : 0));
       console.log('entries', checker.finish().entries);`,
    );
    const ran = spawnSync(process.execPath, ['--trace-protector-invalidation', script], { encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toMatch(/^entries [1-9]\d*$/m);
    expect(ran.stdout).not.toContain('ArrayBufferDetaching');
  });
});
