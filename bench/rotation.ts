// A follower against a fast writer that rotates its log, the way logrotate does: rename
// (numbered), dateext with create, and copytruncate. Every entry carries its own request
// id, so the follower's JSON report says which entries it saw, and how often.
// Used by `npm run stress` (100 rotations of each kind at about 10,000 entries/s) and by
// the test suite (fewer).

import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type RotationMode = 'rename' | 'dateext' | 'copytruncate';
export const ROTATION_MODES: RotationMode[] = ['rename', 'dateext', 'copytruncate'];

export interface Trial {
  mode: RotationMode;
  rotations: number;
  written: number;
  seen: number;
  lost: number;
  doubled: number;
  seconds: number;
}

export interface TrialOptions {
  rotations: number;
  /** Time between rotations. */
  intervalMs: number;
  /** Entries written per second. */
  rate: number;
  /** The program to follow with: node and its script. */
  bin: string;
}

const SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_imap.php';

function entry(seq: number, t: number): string {
  const s = t % 60;
  const m = Math.floor(t / 60) % 60;
  const time = `10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return `[21-Nov-2026 ${time} +0100]: <${seq.toString(16).padStart(8, '0')}> IMAP Error: Login failed for u${seq} against 127.0.0.1 from 192.0.2.1. AUTHENTICATE PLAIN: failed in ${SRC} on line 211 (POST /cpsess0123456789/3rdparty/roundcube/?_task=mail&_action=refresh)\n`;
}

function rotate(path: string, mode: RotationMode, n: number): void {
  if (mode === 'rename') {
    for (let k = 4; k >= 1; k--) if (existsSync(`${path}.${k}`)) renameSync(`${path}.${k}`, `${path}.${k + 1}`);
    renameSync(path, `${path}.1`);
    writeFileSync(path, '');
  } else if (mode === 'dateext') {
    renameSync(path, `${path}-20261121-${String(n).padStart(6, '0')}`);
    writeFileSync(path, '');
  } else {
    if (existsSync(`${path}.1`)) renameSync(`${path}.1`, `${path}.2`);
    copyFileSync(path, `${path}.1`);
    truncateSync(path, 0);
  }
}

/** Where the follower's checkpoint stands for `path`: its offset, when it is of the file there now. */
function stateOffset(state: string, path: string): number {
  try {
    const c = JSON.parse(readFileSync(state, 'utf8')).files[path];
    const head = readFileSync(path).subarray(0, 256).toString('base64');
    return c !== undefined && head.startsWith(c.fingerprint) ? c.offset : -1;
  } catch {
    return -1;
  }
}

export async function rotationTrial(mode: RotationMode, o: TrialOptions): Promise<Trial> {
  const dir = mkdtempSync(join(tmpdir(), `webmail-log-rotation-${mode}-`));
  const path = join(dir, 'errors.log');
  const state = join(dir, 'state.json');
  writeFileSync(path, '');
  const child = spawn(process.execPath, [o.bin, 'analyse', '--follow', '--from-start', '--state', state, '--format', 'json', '--flush-after', '200', path], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  // The follower is up once it has written its first checkpoint.
  appendFileSync(path, entry(0, 0));
  let written = 1;
  for (let waited = 0; stateOffset(state, path) < 0 && waited < 20_000; waited += 20) await sleep(20);
  const started = Date.now();
  const perTick = Math.max(1, Math.round(o.rate / 100));
  for (let r = 0; r < o.rotations; r++) {
    const until = Date.now() + o.intervalMs;
    while (Date.now() < until) {
      let batch = '';
      for (let i = 0; i < perTick; i++) batch += entry(written++, Math.floor(written / 100));
      appendFileSync(path, batch);
      await sleep(10);
    }
    rotate(path, mode, r);
  }
  appendFileSync(path, entry(written++, Math.floor(written / 100)));
  const seconds = (Date.now() - started) / 1000;
  // Caught up: the checkpoint has reached the end of the file.
  for (let waited = 0; stateOffset(state, path) < statSync(path).size && waited < 30_000; waited += 50) await sleep(50);
  child.kill('SIGTERM');
  await done;
  rmSync(dir, { recursive: true, force: true });
  let seen = 0;
  let lost = 0;
  let doubled = 0;
  try {
    const doc = JSON.parse(stdout);
    const count = new Map<string, number>();
    for (const row of doc.requestIds) count.set(row.id, row.entries);
    seen = doc.summary.entries;
    for (let seq = 0; seq < written; seq++) {
      const n = count.get(seq.toString(16).padStart(8, '0')) ?? 0;
      if (n === 0) lost++;
      if (n > 1) doubled += n - 1;
    }
  } catch {
    throw new Error(`the follower gave no report: ${stderr.trim() || stdout.slice(0, 200)}`);
  }
  return { mode, rotations: o.rotations, written, seen, lost, doubled, seconds };
}
