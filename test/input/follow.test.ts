// followFile against a real file that a writer appends to, rotates and truncates.

import { appendFileSync, copyFileSync, existsSync, mkdtempSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { followFile } from '../../src/input/follow.js';

/**
 * Records what followFile hands on, as text per generation of the file. `onPush` hears
 * each piece as it arrives: a rotation done there happens while the follower reads.
 */
function recorder(onPush: (text: string) => void = () => {}) {
  const r = {
    parts: [''] as string[],
    bases: [] as number[],
    flushes: 0,
    push(chunk: Buffer) {
      r.parts[r.parts.length - 1] += chunk.toString();
      onPush(chunk.toString());
    },
    flush() {
      r.flushes++;
    },
    end(lineBase = 0) {
      r.bases.push(lineBase);
      r.parts.push('');
      return 0;
    },
    text: () => r.parts.join(''),
    // Everything pushed counts as handed on: what followFile reads, not what a parser holds.
    pending: () => ({ bytes: 0, lines: 0, read: 0 }),
  };
  return r;
}

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'webmail-log-follow-'));
  return { dir, path: join(dir, 'errors.log') };
}

const opts = (signal: AbortSignal, fromStart = false) => ({ fromStart, pollMs: 20, flushAfterMs: 50, signal });

/** Follows `path`; with `opened`, waits until the follower has opened it (it starts at the end). */
async function follow(path: string, { fromStart = false, opened = true, onPush = (_text: string) => {} } = {}) {
  const r = recorder(onPush);
  const stop = new AbortController();
  const done = followFile(path, r, opts(stop.signal, fromStart));
  if (opened) await until(() => r.bases.length > 0);
  return {
    r,
    finish: async () => {
      stop.abort();
      await done;
    },
  };
}

describe('followFile', () => {
  it('starts after the last complete line, with the lines before it counted', async () => {
    const { path } = setup();
    writeFileSync(path, 'one\ntwo\nhalf');
    const { r, finish } = await follow(path);
    appendFileSync(path, ' line\nthree\n');
    await until(() => r.text().includes('three'));
    await finish();
    expect(r.bases[0]).toBe(2);
    expect(r.text()).toBe('half line\nthree\n');
  });

  it('reads what is there first with fromStart', async () => {
    const { path } = setup();
    writeFileSync(path, 'one\n');
    const { r, finish } = await follow(path, { fromStart: true, opened: false });
    await until(() => r.text() === 'one\n');
    await finish();
  });

  it('waits for a file that does not exist yet, then reads it from its start', async () => {
    const { path } = setup();
    const { r, finish } = await follow(path, { opened: false });
    await sleep(60);
    writeFileSync(path, 'first\n');
    await until(() => r.text() === 'first\n');
    await finish();
  });

  it('drains a renamed file, then switches to the new one, losing and repeating nothing', async () => {
    const { path } = setup();
    writeFileSync(path, '');
    const { r, finish } = await follow(path);
    const written: string[] = [];
    for (let i = 0; i < 300; i++) {
      const line = `entry ${i}\n`;
      written.push(line);
      appendFileSync(path, line);
      if (i === 150) renameSync(path, `${path}.1`);
      if (i % 25 === 0) await sleep(5);
    }
    await until(() => r.text().length === written.join('').length);
    await finish();
    expect(r.text()).toBe(written.join(''));
    expect(r.bases).toContain(0);
  });

  it('reads every file of several rename rotations between two looks, in order, though the names shift while it reads', async () => {
    const { path } = setup();
    writeFileSync(path, 'a1\n');
    /** logrotate's numbered rename: errors.log.N → .N+1, …, errors.log → .1, then a new errors.log holding `first`. */
    const rotate = (first: string) => {
      for (let k = 8; k >= 1; k--) if (existsSync(`${path}.${k}`)) renameSync(`${path}.${k}`, `${path}.${k + 1}`);
      renameSync(path, `${path}.1`);
      writeFileSync(path, first);
    };
    const onPush = (text: string) => {
      // Two rotations before the follower looks again (written in the same instant, so
      // their times cannot order them)…
      if (text === 'a1\n') {
        appendFileSync(path, 'a2\n');
        rotate('b1\n');
        rotate('c1\n');
      }
      // …and another while it reads b's file, which moves it from .1 to .2.
      if (text === 'b1\n') rotate('d1\n');
    };
    const { r, finish } = await follow(path, { fromStart: true, opened: false, onPush });
    await until(() => r.text().includes('d1'));
    await finish();
    expect(r.text()).toBe('a1\na2\nb1\nc1\nd1\n');
  });

  it('copytruncate twice before the second generation is read: that one comes from its copy, not lost', async () => {
    const { path } = setup();
    writeFileSync(path, 'x1\n');
    const copytruncate = (next: string) => {
      if (existsSync(`${path}.1`)) renameSync(`${path}.1`, `${path}.2`);
      copyFileSync(path, `${path}.1`);
      truncateSync(path, 0);
      appendFileSync(path, next);
    };
    const onPush = (text: string) => {
      // x's last line is written and x rotated: the follower takes x2 from the copy…
      if (text === 'x1\n') {
        appendFileSync(path, 'x2\n');
        copytruncate('y1\n');
      }
      // …and while it does, y (not read yet) is rotated too.
      if (text === 'x2\n') copytruncate('z1\n');
    };
    const { r, finish } = await follow(path, { fromStart: true, opened: false, onPush });
    await until(() => r.text().includes('z1'));
    await finish();
    expect(r.text()).toBe('x1\nx2\ny1\nz1\n');
  });

  it('keeps the order under a rotation every few milliseconds that keeps five files: nothing read twice or out of order, nearly all read, no "waiting" note', async () => {
    const { path } = setup();
    writeFileSync(path, '');
    const lines = 6000;
    // Another process writes and rotates, as the service and logrotate do: 37 lines a
    // file, a pause of 1 ms every 20 lines, .5 deleted at each rotation (inodes are
    // given again at once). Before, files were read in the wrong order here (10-29
    // times a run) and a third to two thirds of the lines were lost; tail -F lost 0.5 %.
    const writer = `
      const fs = require('node:fs');
      const [path, n] = [process.argv[1], Number(process.argv[2])];
      const pause = new Int32Array(new SharedArrayBuffer(4));
      let fd = fs.openSync(path, 'a');
      for (let i = 0; i < n; i++) {
        fs.writeSync(fd, 'entry ' + i + '\\n');
        if (i % 20 === 0) Atomics.wait(pause, 0, 0, 1);
        if (i % 37 === 36) {
          fs.closeSync(fd);
          for (let k = 4; k >= 1; k--) if (fs.existsSync(path + '.' + k)) fs.renameSync(path + '.' + k, path + '.' + (k + 1));
          fs.renameSync(path, path + '.1');
          fd = fs.openSync(path, 'a');
        }
      }`;
    const r = recorder();
    const notes: string[] = [];
    const stop = new AbortController();
    const following = followFile(path, r, { ...opts(stop.signal, true), note: (t: string) => notes.push(t) });
    const child = spawn(process.execPath, ['-e', writer, path, String(lines)], { stdio: 'inherit' });
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    await until(() => r.text().includes(`entry ${lines - 1}\n`));
    stop.abort();
    await following;
    const read = r.text().split('\n').filter((l) => l !== '').map((l) => Number(l.slice('entry '.length)));
    const backwards = read.filter((n, i) => i > 0 && n <= read[i - 1]);
    expect(backwards).toEqual([]);
    expect(read.length).toBeGreaterThanOrEqual(lines * 0.9);
    // The name is free for a moment at each rotation: no news once the file was opened.
    expect(notes.filter((n) => n.startsWith('waiting'))).toEqual([]);
  }, 30_000);

  it('resumed between copytruncate\'s copy and its truncation: the copy read whole is not read again from the file', async () => {
    const { path } = setup();
    // Read up to x1 before the stop; meanwhile x was copied to .1 and truncated, then y
    // was written and copied (now .1, x's copy .2), and y2 written before y's truncation.
    writeFileSync(`${path}.2`, 'x1\nx2\n');
    writeFileSync(`${path}.1`, 'y1\n');
    writeFileSync(path, 'y1\ny2\n');
    const r = recorder();
    const stop = new AbortController();
    const done = followFile(path, r, { ...opts(stop.signal), resume: { fingerprint: Buffer.from('x1\n').toString('base64'), offset: 3, line: 1 } });
    await until(() => r.text().includes('y2'));
    await sleep(100);
    stop.abort();
    await done;
    expect(r.text()).toBe('x2\ny1\ny2\n');
  });

  it('reading a large rotated file (blocking calls) still lets timers run between its blocks', async () => {
    const { path } = setup();
    const big = 'x'.repeat(99) + '\n';
    writeFileSync(`${path}.1`, big.repeat(80_000)); // 8 MB: eight blocks
    writeFileSync(path, 'new\n');
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const seen: number[] = [];
    const r = recorder(() => seen.push(ticks));
    const stop = new AbortController();
    const done = followFile(path, r, { ...opts(stop.signal), resume: { fingerprint: Buffer.from(big).toString('base64'), offset: 100, line: 1 } });
    await until(() => r.text().includes('new'));
    stop.abort();
    await done;
    clearInterval(timer);
    expect(seen.length).toBeGreaterThanOrEqual(8);
    expect(seen[7]).toBeGreaterThan(seen[0]);
  });

  it('starts again at 0 when the file is truncated (copytruncate)', async () => {
    const { path } = setup();
    writeFileSync(path, '');
    const { r, finish } = await follow(path);
    appendFileSync(path, 'before one\nbefore two\n');
    await until(() => r.text().includes('before two'));
    truncateSync(path, 0);
    await sleep(80);
    appendFileSync(path, 'after\n');
    await until(() => r.text().includes('after'));
    await finish();
    expect(r.text()).toBe('before one\nbefore two\nafter\n');
    expect(r.parts.at(-1)).toBe('after\n');
  });

  it('flushes once the file goes quiet', async () => {
    const { path } = setup();
    writeFileSync(path, '');
    const { r, finish } = await follow(path);
    appendFileSync(path, 'x\n');
    await until(() => r.flushes === 1);
    await sleep(120);
    await finish();
    expect(r.flushes).toBe(1);
  });
});
