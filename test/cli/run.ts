// Spawns the built binary, as an operator or a CI job would run it.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/webmail-log.js', import.meta.url));
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function cli(
  args: string[],
  opts: { cwd?: string; stdin?: string | Buffer; env?: NodeJS.ProcessEnv } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: undefined, NO_COLOR: undefined, ...opts.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.stdin ?? '');
  });
}
