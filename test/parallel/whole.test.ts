// A gzipped file read whole by one of the run's workers (src/parallel/whole.ts): the
// analyser sees what one thread reading it would hand on, whether the worker reads the
// entries into records or cuts them for this thread to read, file after file through the
// same workers, and a reading stopped midway leaves no worker to be used again. The
// modules come from dist/: a worker thread loads built JavaScript (npm test builds first).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { recurringIdsLog } from '../helpers.js';
// @ts-expect-error built JavaScript, without declarations in the test project
import { readWhole } from '../../dist/parallel/whole.js';
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

/** About `bytes` of log in which 500 request ids recur, so that a worker's string table carries from file to file. */
const buildLog = (bytes: number, from: number) => recurringIdsLog(bytes, from, ['text before the first entry']);

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-whole-'));
// More records than a part holds (16,384), so that the parts are several; and in the
// second file an entry of 3 MB, of which the assembler keeps its first and last 512 KiB.
const long = `[21-Nov-2026 10:30:00 +0100]: <10000001> PHP Error: ${'x'.repeat(3_000_000)} in y on line 1 (GET /cpsess0123456789/x)`;
const files = [0, 1].map((k) => {
  const path = join(dir, `errors.log.${2 - k}.gz`);
  const text = buildLog(4_000_000, k * 30_000);
  // An id's `<` on the header's line and its `>` on the next: no id (the id is read on the first line).
  const split = '[21-Nov-2026 10:30:00 +0100]: <abcd\nef12> IMAP Error: x (GET /cpsess0123456789/x)';
  writeFileSync(path, gzipSync(k === 0 ? text.replace('\n[', `\n${split}\n[`) : text.replace('\n[', `\n${long}\n[`)));
  return path;
});

/** The JSON of the files as one stream: read by this thread, or each whole by `parsers`, the entries read by whom `plan` says. */
async function report(parsers?: unknown, signal = new AbortController().signal, plan?: string): Promise<string> {
  const violations: unknown[] = [];
  const checker = new StreamChecker({ pairWindow: 1, severities: severities({}) }, (v: unknown) => violations.push(v));
  for (const path of files) {
    const feed = checker.addFile(path);
    if (parsers === undefined) {
      const { gunzipSync } = await import('node:zlib');
      const { readFileSync } = await import('node:fs');
      // In pieces of 1 MiB, as any input is read: the assembler caps an entry as it grows.
      const text = gunzipSync(readFileSync(path));
      for (let at = 0; at < text.length; at += 1 << 20) feed.push(text.subarray(at, at + (1 << 20)));
      feed.end();
    } else {
      await readWhole(path, path, feed, parsers, { signal, plan });
    }
  }
  return reportText(renderJson(checker.finish(), violations, 'h'));
}

describe('a gzipped file read whole by a worker', () => {
  it('hands on what one thread reads, file after file through the same worker, whoever reads the entries', async () => {
    const single = await report();
    expect(JSON.parse(single).summary.entries).toBeGreaterThan(35_000);
    expect(JSON.parse(single).summary.truncatedEntries).toBe(1);
    const parsers = new Parsers(1);
    try {
      // The worker reads every entry into records, or cuts them all for this thread to
      // read, or each in turn (a piece of 1 MiB each), or as the reading goes.
      for (const plan of ['records', 'cut', 'alternate', undefined]) {
        expect(await report(parsers, undefined, plan), String(plan)).toBe(single);
        expect(parsers.usable).toBe(true);
      }
    } finally {
      await parsers.close();
    }
  });

  it('closes the workers when stopped midway', async () => {
    const parsers = new Parsers(1);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    await report(parsers, stop.signal);
    expect(parsers.usable).toBe(false);
  });
});
