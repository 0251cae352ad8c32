// The bench's peak RSS is the program's own (bench/measure.ts, preloaded into the installed
// command as bench/measured.ts starts it), not that of the process that started it: Linux
// carries getrusage's maxRSS across the fork and exec that start a process, and the bench,
// holding the JSON of earlier runs, can be larger than what it measures. Run on the
// bench's built JavaScript (npm's pretest builds it), started by a process that holds 300
// MiB.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MEASURED = fileURLToPath(new URL('../../build/bench/measured.js', import.meta.url));
const LINUX = existsSync('/proc/self/status');

/** What a child started by a process holding 300 MiB says of its peak RSS, in MiB: the program under measure.js, or a plain getrusage. */
function peakUnderLargeParent(child: 'measure' | 'getrusage'): { parentMiB: number; childMiB: number } {
  const script = `
    const { spawnSync } = await import('node:child_process');
    const held = Buffer.alloc(300 << 20, 1);
    ${
      child === 'measure'
        ? `const { BIN, measuredEnv } = await import(${JSON.stringify(MEASURED)}); const r = spawnSync(BIN, ['--version'], { stdio: ['ignore', 'ignore', 'inherit', 'pipe'], env: measuredEnv() }); const kib = JSON.parse(r.output[3].toString()).maxRssKiB;`
        : `const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS))'], { encoding: 'utf8' }); const kib = Number(r.stdout);`
    }
    console.log(JSON.stringify({ parentMiB: process.memoryUsage().rss / 1048576, childMiB: kib / 1024, held: held.length }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

describe.skipIf(!LINUX)('peak RSS as the bench reads it', () => {
  it("is the program's own, not the RSS of the process that started it", () => {
    const ours = peakUnderLargeParent('measure');
    expect(ours.parentMiB).toBeGreaterThan(300);
    // `webmail-log --version`: Node and the bundle, some 40-60 MiB.
    expect(ours.childMiB).toBeGreaterThan(10);
    expect(ours.childMiB).toBeLessThan(150);
  });

  it('would not be, read from getrusage (the trap the bench avoids)', () => {
    expect(peakUnderLargeParent('getrusage').childMiB).toBeGreaterThan(300);
  });
});

if (!LINUX) console.log('skipped: peak RSS as the bench reads it needs /proc (Linux)');
