// --follow under a fast writer that rotates: every entry seen once, through rename,
// dateext with create, and copytruncate; --state across a restart and a rotation while
// the follower was down. `npm run stress` runs the same trials at full size.

import { appendFileSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ROTATION_MODES, rotationTrial } from '../../bench/rotation.js';
import { imap, log } from '../helpers.js';
import { BIN, startCli } from './run.js';

describe('--follow through rotations, under a fast writer', () => {
  for (const mode of ROTATION_MODES) {
    it(`${mode}: 20 rotations, nothing lost, nothing doubled`, async () => {
      const t = await rotationTrial(mode, { rotations: 20, intervalMs: 100, rate: 5000, bin: BIN });
      expect(t.written).toBeGreaterThan(2000);
      expect({ lost: t.lost, doubled: t.doubled, seen: t.seen }).toEqual({ lost: 0, doubled: 0, seen: t.written });
    }, 60_000);
  }
});

/** An IMAP entry with its own request id, at second `n`. */
const numbered = (n: number) => imap(`10:00:${String(n % 60).padStart(2, '0')}`, { id: n.toString(16).padStart(8, '0') });

async function run(args: string[], during: (since: number) => Promise<void>) {
  const since = Date.now();
  const live = startCli(args);
  await during(since);
  live.child.kill('SIGTERM');
  const done = await live.done;
  return { ...done, doc: JSON.parse(done.stdout) };
}

/** Waits until this run's follower has saved a checkpoint of the file now at `path`, at `offset` or past it. */
async function untilState(state: string, path: string, offset: number, since: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      const c = JSON.parse(readFileSync(state, 'utf8')).files[path];
      const head = readFileSync(path).subarray(0, 256).toString('base64');
      if (statSync(state).mtimeMs >= since && head.startsWith(c.fingerprint) && c.offset >= offset) return;
    } catch {
      // not written yet
    }
    await sleep(25);
  }
  throw new Error('the follower never caught up');
}

describe('--state', () => {
  it('resumes a restarted follower where it stood, through a rotation while it was down, counting nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-state-'));
    const path = join(dir, 'errors.log');
    const state = join(dir, 'state.json');
    writeFileSync(path, log(numbered(0), numbered(1)));
    const args = ['analyse', '--follow', '--state', state, '--format', 'json', '--flush-after', '100', path];
    // First run: starts at the end (the two entries before it are not its business).
    const first = await run(args, async (since) => {
      await untilState(state, path, 0, since);
      appendFileSync(path, log(numbered(2), numbered(3)));
      await untilState(state, path, readFileSync(path).length, since);
    });
    // While it is down: two more entries, a rename rotation, two in the new file.
    appendFileSync(path, log(numbered(4), numbered(5)));
    renameSync(path, `${path}.1`);
    writeFileSync(path, log(numbered(6), numbered(7)));
    const second = await run(args, async (since) => {
      await untilState(state, path, readFileSync(path).length, since);
      appendFileSync(path, log(numbered(8)));
      await untilState(state, path, readFileSync(path).length, since);
    });
    const ids = (doc: { requestIds: { id: string }[] }) => doc.requestIds.map((r) => parseInt(r.id, 16));
    expect(ids(first.doc)).toEqual([2, 3]);
    expect(ids(second.doc)).toEqual([4, 5, 6, 7, 8]);
    expect(second.doc.summary.entries).toBe(5);
    // Line numbers go on from where the first run stood.
    expect(second.stderr).toBe('');
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved.files[path]).toMatchObject({ offset: readFileSync(path).length, line: 3 });
  });

  it('needs --follow, and says so of a state file that is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-state-bad-'));
    const bad = join(dir, 'state.json');
    writeFileSync(bad, '{"hello": 1}');
    writeFileSync(join(dir, 'e.log'), '');
    const noFollow = startCli(['analyse', '--state', bad, join(dir, 'e.log')]);
    expect((await noFollow.done).stderr).toBe('webmail-log: --state goes with --follow\n');
    const notState = startCli(['analyse', '--follow', '--state', bad, join(dir, 'e.log')]);
    const done = await notState.done;
    expect(done.stderr).toBe(`webmail-log: ${bad} is not a webmail-log state file of version 1\n`);
    expect(done.status).toBe(2);
  });
});
