// A gzipped file read whole by one of the run's workers (src/parallel/whole.ts): the
// analyser sees what one thread reading it would hand on, file after file through the
// same workers, and a reading stopped midway leaves no worker to be used again. The
// modules come from dist/: a worker thread loads built JavaScript (npm test builds first).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imap, log, lookup, pair } from '../helpers.js';
// @ts-expect-error built JavaScript, without declarations in the test project
import { readWhole } from '../../dist/parallel/whole.js';
// @ts-expect-error built JavaScript
import { Parsers } from '../../dist/parallel/parsers.js';
// @ts-expect-error built JavaScript
import { StreamChecker } from '../../dist/pipeline.js';
// @ts-expect-error built JavaScript
import { renderJson } from '../../dist/report/json.js';
// @ts-expect-error built JavaScript
import { severities } from '../../dist/analyse/rules.js';

function clock(i: number): string {
  const s = 36000 + Math.floor(i / 3);
  return [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}

/** About `bytes` of log in which 500 request ids recur, so that a worker's string table carries from file to file. */
function buildLog(bytes: number, from: number): string {
  const parts: string[] = ['text before the first entry'];
  for (let i = from, size = 0; size < bytes; i++, size = parts.length * 200) {
    const t = clock(i);
    const id = `${(0x10000000 + (i % 500)).toString(16)}`;
    if (i % 7 === 0) parts.push(imap(t, { id }));
    else if (i % 13 === 0) parts.push(lookup(t, 'caldav_calendars', { id }), lookup(t, 'calendars', { id }));
    else parts.push(...pair(t, { id }));
  }
  return log(...parts);
}

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-whole-'));
// More records than a part holds (16,384), so that the parts are several.
const files = [0, 1].map((k) => {
  const path = join(dir, `errors.log.${2 - k}.gz`);
  writeFileSync(path, gzipSync(buildLog(4_000_000, k * 30_000)));
  return path;
});

/** The JSON of the files as one stream: read by this thread, or each whole by `parsers`. */
async function report(parsers?: unknown, signal = new AbortController().signal): Promise<string> {
  const violations: unknown[] = [];
  const checker = new StreamChecker({ pairWindow: 1, severities: severities({}) }, (v: unknown) => violations.push(v));
  for (const path of files) {
    const feed = checker.addFile(path);
    if (parsers === undefined) {
      const { gunzipSync } = await import('node:zlib');
      const { readFileSync } = await import('node:fs');
      feed.push(gunzipSync(readFileSync(path)));
      feed.end();
    } else {
      await readWhole(path, path, feed, parsers, { signal });
    }
  }
  return [...renderJson(checker.finish(), violations, 'h')].join('');
}

describe('a gzipped file read whole by a worker', () => {
  it('hands on what one thread reads, file after file through the same worker', async () => {
    const single = await report();
    expect(JSON.parse(single).summary.entries).toBeGreaterThan(35_000);
    const parsers = new Parsers(1);
    try {
      expect(await report(parsers)).toBe(single);
      expect(parsers.usable).toBe(true);
      // Again, the worker's tables going on from where they stood.
      expect(await report(parsers)).toBe(single);
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
