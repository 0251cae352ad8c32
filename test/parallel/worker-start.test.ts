// A parsing worker starts under V8's own heap flags, and the program sets ours only once
// its modules are loaded (src/heap.ts): Node keeps its own modules compiled in a code
// cache that V8 accepts only under the flags it was made with, and a worker started under
// ours compiled every module of its bootstrap again.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { BIN } from '../cli/run.js';
import { log, nodeScript, pair } from '../helpers.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** In a child process: loads one of Node's modules not loaded yet with the heap tuned, then untuned; how many of Node's modules each compiled with its cache and without. */
function cacheUse(): { tuned: number[]; untuned: number[] } {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const { internalBinding } = require('internal/test/binding');
    const { tuneHeap, untuneHeap } = await import(${JSON.stringify(DIST + 'heap.js')});
    const use = () => { const u = internalBinding('builtins').getCacheUsage(); return [u.compiledWithCache.size, u.compiledWithoutCache.size]; };
    const since = (a, b) => [b[0] - a[0], b[1] - a[1]];
    tuneHeap();
    let at = use();
    require('node:dns');
    const tuned = since(at, use());
    untuneHeap();
    at = use();
    require('node:readline');
    const untuned = since(at, use());
    console.log(JSON.stringify({ tuned, untuned }));
  `;
  const r = nodeScript('cache', script, ['--expose-internals', '--no-warnings'])();
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { tuned: number[]; untuned: number[] };
}

describe('a worker start', () => {
  it("has Node's modules compiled from its cache once the heap is untuned", () => {
    const { tuned, untuned } = cacheUse();
    // With the flags tuned, Node 20 compiles them without it (a later V8 leaves memory
    // flags out of the cache's key): said, not held, so that this test holds there too.
    expect(untuned[0], `tuned: ${tuned[0]} with the cache, ${tuned[1]} without`).toBeGreaterThan(0);
    expect(untuned[1]).toBe(0);
  });

  it("leaves none of Node's modules compiled without the cache in the program as bin/ runs it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-cache-'));
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `import { createRequire } from 'node:module';
      const { internalBinding } = createRequire(import.meta.url)('internal/test/binding');
      process.on('exit', () => process.stderr.write(JSON.stringify([...internalBinding('builtins').getCacheUsage().compiledWithoutCache])));`,
    );
    const file = join(dir, 'errors.log');
    writeFileSync(file, log(pair('10:00:00'), pair('10:01:00')));
    const r = spawnSync(process.execPath, ['--expose-internals', '--no-warnings', '--import', probe, BIN, 'analyse', '--format', 'json', file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    // Before, commander's child_process and the four modules it loads.
    expect(JSON.parse(r.stderr)).toEqual([]);
  });

  it('is begun with the heap untuned, each worker made after', async () => {
    vi.resetModules();
    const calls: string[] = [];
    vi.doMock('node:worker_threads', () => ({
      Worker: class {
        constructor() {
          calls.push('worker');
        }
        on(): void {}
      },
    }));
    vi.doMock('../../src/heap.js', () => ({ untuneHeap: () => calls.push('untune'), tuneHeap: () => calls.push('tune') }));
    const { Parsers } = await import('../../src/parallel/parsers.js');
    new Parsers(2);
    expect(calls).toEqual(['untune', 'worker', 'worker']);
    vi.doUnmock('node:worker_threads');
    vi.doUnmock('../../src/heap.js');
  });
});
