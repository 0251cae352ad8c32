// Starting the real programs an operator runs (Prometheus, node_exporter, rsyslog) on
// 127.0.0.1 for a test, waiting for them by polling, and stopping them.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** The path of a program, or null with a visible note naming the Debian package to install. */
export function program(name: string, pkg: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found === '') {
    console.warn(`SKIPPED: ${name} is not installed (Debian package ${pkg}; .ci/run installs it as root)`);
    return null;
  }
  return found;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Running {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export function start(cmd: string, args: string[], opts: { cwd?: string } = {}): Running {
  const child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** Polls `test` until it gives a value (not undefined), or fails after `ms`. */
export async function until<T>(what: string, test: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const v = await test();
      if (v !== undefined) return v;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}
