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
  /** `command`: run as the installed command, through the file's own first lines (a shell's), not by `node`; at that path (npm links it). */
  opts: { cwd?: string; stdin?: string | Buffer; env?: NodeJS.ProcessEnv; command?: string } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: undefined, NO_COLOR: undefined, ...opts.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    const [file, argv] = opts.command === undefined ? [process.execPath, [BIN, ...args]] : [opts.command, args];
    const child = spawn(file, argv, { cwd: opts.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** A running CLI whose stdin the test writes to and whose stdout it reads line by line. */
export interface Live {
  child: import('node:child_process').ChildProcessWithoutNullStreams;
  write(text: string): void;
  /** The next stdout line, or a rejection after `ms`. */
  nextLine(ms?: number): Promise<string>;
  done: Promise<{ status: number | null; stdout: string; stderr: string }>;
}

export function startCli(args: string[], opts: { cwd?: string } = {}): Live {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let read = 0;
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding('utf8').on('data', (d) => {
    stdout += d;
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  child.stdin.on('error', () => {});
  const done = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => {
      for (const w of waiters.splice(0)) w();
      resolve({ status, stdout, stderr });
    }),
  );
  const nextLine = (ms = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line within ${ms} ms; stdout so far: ${stdout}`)), ms);
      const look = () => {
        const nl = stdout.indexOf('\n', read);
        if (nl >= 0) {
          clearTimeout(timer);
          const line = stdout.slice(read, nl);
          read = nl + 1;
          resolve(line);
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`exited; stdout: ${stdout}`));
        } else {
          waiters.push(look);
        }
      };
      look();
    });
  return { child, write: (text) => void child.stdin.write(text), nextLine, done };
}
