// Live input through the real binary: a pipe that stays open, signals, a closed
// stdout, and files followed through rotation.

import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { imap, log, lookup, pair } from '../helpers.js';
import { BIN, startCli } from './run.js';

const ORDER = log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'));

describe('a pipe that stays open', () => {
  it('prints a violation as soon as the next entry decides it, long before stdin closes', async () => {
    const live = startCli(['analyse', '--format', 'ndjson', '--flush-after', '60000', '-']);
    live.write(ORDER);
    live.write(log(imap('10:00:08')));
    const line = JSON.parse(await live.nextLine());
    expect(line).toEqual({
      type: 'violation',
      rule: 'pair-order',
      severity: 'error',
      file: '-',
      line: 2,
      requestId: '3fa9c2d1',
      message: 'remote-sync lookup (line 1) came before the local lookup',
    });
    expect(live.child.exitCode).toBeNull();
    live.child.stdin.end();
    const { status, stdout } = await live.done;
    const last = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(last.type).toBe('summary');
    expect(last.summary).toMatchObject({ entries: 3, violations: { error: 1, warning: 0 } });
    expect(last).not.toHaveProperty('violations');
    expect(status).toBe(1);
  });

  it('takes the last entry as complete once the pipe is quiet for --flush-after', async () => {
    const live = startCli(['analyse', '--format', 'ndjson', '--flush-after', '100', '-']);
    live.write(ORDER);
    const started = Date.now();
    expect(JSON.parse(await live.nextLine(3000)).rule).toBe('pair-order');
    expect(Date.now() - started).toBeLessThan(3000);
    live.child.stdin.end();
    await live.done;
  });

  it('prints one text line per violation on a live stream, then the summary tables', async () => {
    const live = startCli(['analyse', '--flush-after', '100', '-']);
    live.write(ORDER);
    expect(await live.nextLine()).toBe('-:2  error    pair-order  remote-sync lookup (line 1) came before the local lookup');
    live.child.stdin.end();
    const { stdout } = await live.done;
    expect(stdout).toMatch(/Overview[\s\S]*violations\s+1 error, 0 warnings/);
    expect(stdout).not.toMatch(/Violations/);
  });
});

describe('signals', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} decides what is pending, prints the summary and exits for what was seen`, async () => {
      const live = startCli(['analyse', '--format', 'ndjson', '--flush-after', '60000', '-']);
      // A non-hex id is reported at once: its line says the reader is running (no sleep
      // that a loaded machine could outlast).
      live.write(log(imap('10:00:00', { id: 'XY' }), pair('10:00:01'), lookup('10:00:02', 'calendars')));
      expect(JSON.parse(await live.nextLine(10_000)).rule).toBe('request-id-format');
      live.child.kill(signal);
      const { status, stdout } = await live.done;
      const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.rule ?? l.type)).toEqual(['request-id-format', 'pair-incomplete', 'summary']);
      expect(lines[2].summary).toMatchObject({ entries: 4, refreshPairs: 1 });
      expect(status).toBe(0);
    });
  }

  it('exits 1 on SIGINT when an error was seen', async () => {
    const live = startCli(['analyse', '--format', 'ndjson', '-']);
    live.write(ORDER + log(imap('10:00:09')));
    await live.nextLine();
    live.child.kill('SIGINT');
    expect((await live.done).status).toBe(1);
  });
});

describe('a closed stdout', () => {
  it('ends quietly with status 0 (| head -1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-head-'));
    const many = join(dir, 'many.log');
    writeFileSync(many, log(...Array.from({ length: 20000 }, (_, i) => lookup(`10:${String(Math.floor((i % 3600) / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, 'calendars'))));
    const live = startCli(['analyse', '--format', 'ndjson', many]);
    await live.nextLine();
    live.child.stdout.destroy();
    const { status, stderr } = await live.done;
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });

  it('ends quietly with status 0 in the middle of a report of many request ids (| head -c)', () => {
    // The request-id list goes into the pipe from libuv's pool (io.ts), the rest of the
    // report through stdout's stream: a reader gone in the middle of either is no error.
    // Read whole, the log exits 1 (a violation).
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-head-'));
    const many = join(dir, 'many-ids.log');
    writeFileSync(many, ORDER + log(...Array.from({ length: 6000 }, (_, i) => pair(`1${Math.floor(i / 3600)}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, { id: (0x10000000 + i).toString(16), segment: `cpsess${1_000_000_000 + i}` }))));
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" analyse --format json "${many}" | head -c 4096 > /dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('0\n');
    expect(spawnSync(process.execPath, [BIN, 'analyse', '--format', 'json', many], { stdio: 'ignore' }).status).toBe(1);
  });
});

describe('--follow', () => {
  it('follows rename rotation, copytruncate and a file created late, counting every entry once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-follow-cli-'));
    const path = join(dir, 'errors.log');
    const late = join(dir, 'other.log');
    writeFileSync(path, '');
    const live = startCli(['analyse', '--follow', '--from-start', '--format', 'ndjson', '--flush-after', '100', path, late]);
    let written = 0;
    const write = async (file: string, seconds: number) => {
      const t = `10:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      appendFileSync(file, log(pair(t)));
      written += 2;
      await sleep(15);
    };
    let s = 0;
    for (; s < 10; s++) await write(path, s);
    await sleep(400);
    renameSync(path, `${path}.1`);
    for (; s < 20; s++) await write(path, s);
    await sleep(400);
    copyFileSync(path, `${path}.2`);
    truncateSync(path, 0);
    await sleep(400);
    for (; s < 30; s++) await write(path, s);
    // errors.log's last entry is handed on after --flush-after of quiet; the late file's
    // entries must come after it in the stream, or they would be out of order.
    await sleep(500);
    // Another session: its lookups must not pair with errors.log's across the two files.
    const other = { id: 'bbbbbbbb', segment: 'cpsess2222222222' };
    appendFileSync(late, log(lookup('10:00:59', 'caldav_calendars', other), lookup('10:00:59', 'calendars', other)));
    written += 2;
    // The late file's pair-order violation is the last thing decided: then stop.
    expect(JSON.parse(await live.nextLine()).rule).toBe('pair-order');
    live.child.kill('SIGINT');
    const { status, stdout, stderr } = await live.done;
    expect(stderr).toBe(`webmail-log: note: waiting for ${late} to appear\n`);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    const summary = lines.at(-1);
    expect(summary.type).toBe('summary');
    expect(summary.summary).toMatchObject({ files: 2, entries: written, lines: written, refreshPairs: written / 2 });
    expect(lines.slice(0, -1).map((l) => `${l.rule}@${l.file.endsWith('other.log') ? 'other' : 'errors'}:${l.line}`)).toEqual(['pair-order@other:2']);
    expect(status).toBe(1);
  });

  it('refuses a directory at once', async () => {
    const live = startCli(['analyse', '--follow', '.']);
    const { status, stderr, stdout } = await live.done;
    expect(status).toBe(2);
    expect(stderr).toBe('webmail-log: cannot follow .: is a directory\n');
    expect(stdout).toBe('');
  });

  it('needs --follow for --from-start', async () => {
    const { status, stderr } = await startCli(['analyse', '--from-start', 'x.log']).done;
    expect(status).toBe(2);
    expect(stderr).toBe('webmail-log: --from-start goes with --follow\n');
  });
});
