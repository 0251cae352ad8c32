// Loaded into the program by the bench (`--import`, see measured.ts) and, as the process
// exits, writes its peak RSS to fd 3: the process is the program itself, started as the
// installed command starts it, with no wrapper of its own in the figures. The bench
// times the process from outside, start to exit.

import { readFileSync, writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/**
 * The peak RSS of this process, in KiB: the kernel's high-water mark of its memory
 * (VmHWM). Not getrusage's maxRSS: Linux carries that across the fork and exec that
 * start a process, so it is at least the RSS the bench itself had when it started this
 * run (a `node -e` started by a process holding 300 MiB says 304 MiB; VmHWM, 40).
 */
function peakRssKiB(): number {
  try {
    const hwm = /^VmHWM:\s*(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm !== null) return Number(hwm[1]);
  } catch {
    // No /proc: not Linux.
  }
  return process.resourceUsage().maxRSS;
}

// A preload runs in every worker thread too: the process's figure is written once.
if (isMainThread) process.on('exit', () => writeSync(3, JSON.stringify({ maxRssKiB: peakRssKiB() }) + '\n'));
