// The young generation stays small (src/heap.ts) in a run with a parsing worker too:
// starting a worker thread resets V8's flags for the whole process, and the worker sets
// them again. Run in a child process of its own, on the built modules a worker loads.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateLog, PROFILES } from '../../bench/generate.js';
import { BIN } from '../cli/run.js';
import { nodeScript } from '../helpers.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The new space's size in MiB after allocating 3 million short-lived objects, with or without a parsing worker started first. */
function newSpaceMiB(withWorker: boolean): number {
  const script = `
    (await import(${JSON.stringify(DIST + 'heap.js')})).tuneHeap();
    const v8 = await import('node:v8');
    const { Worker } = await import('node:worker_threads');
    if (${withWorker}) {
      const w = new Worker(new URL(${JSON.stringify('file://' + DIST + 'parallel/worker.js')}));
      const ready = new Int32Array(new SharedArrayBuffer(4));
      w.postMessage({ progress: new Int32Array(new SharedArrayBuffer(4)), ready, index: 0 });
      while (Atomics.load(ready, 0) === 0) await new Promise((r) => setTimeout(r, 5));
      w.unref();
    }
    let keep = [];
    for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 200000) keep = []; }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(space.space_size / 1048576);
  `;
  const r = nodeScript('heap', script)();
  expect(r.stderr).toBe('');
  return Number(r.stdout.trim());
}

describe('the heap', () => {
  it('keeps the young generation at 4 MiB or less, without a worker and with one', () => {
    expect(newSpaceMiB(false)).toBeLessThanOrEqual(4);
    expect(newSpaceMiB(true)).toBeLessThanOrEqual(4);
  });

  it('is set so in the program as bin/ runs it (its bundle)', () => {
    // 30 MB of short sessions: without the settings, the new space grew to 16 MiB on it.
    // One job: with a worker, how far it grows before the worker sets the flags again
    // depends on how soon the worker starts (heap.ts); the test above holds that case.
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-heap-'));
    const log = join(dir, 'errors.log');
    generateLog(log, 30e6, PROFILES.short);
    const probe = join(dir, 'new-space.mjs');
    writeFileSync(
      probe,
      `import v8 from 'node:v8';
      process.on('exit', () => process.stderr.write(String(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576)));`,
    );
    const r = spawnSync(process.execPath, ['--import', probe, BIN, 'analyse', '--format', 'json', '--jobs', '1', log], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stderr).toBe(1);
    expect(Number(r.stderr)).toBeLessThanOrEqual(4);
  });
});
