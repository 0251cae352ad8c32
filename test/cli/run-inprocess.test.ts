// run() with a stand-in for the process: cases a spawned child cannot show (a terminal).

import { describe, expect, it, vi } from 'vitest';
import { chooseChalk, run } from '../../src/cli.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processIo } from '../../src/io.js';
import { WRITE_PIECE } from '../../src/report/reporter.js';
import { fakeIo } from '../fake-io.js';
import { log, pair } from '../helpers.js';

const io = fakeIo;

describe('run', () => {
  it('says in one line that it needs an input instead of waiting on a terminal', async () => {
    const fake = io({ stdinIsTTY: true, stdinIsLive: true, stdinIsReadable: false });
    expect(await run(['node', 'webmail-log', 'analyse'], fake)).toBe(2);
    expect(fake.errText).toBe('webmail-log: no input: name a log file, or pipe one in (webmail-log analyse errors.log)\n');
    expect(fake.outText).toBe('');
  });
});

describe('colour', () => {
  it('follows the flag first, then FORCE_COLOR, then NO_COLOR, then the terminal', () => {
    expect(chooseChalk(true, false, { NO_COLOR: '1' }).level).toBeGreaterThan(0);
    expect(chooseChalk(false, true, { FORCE_COLOR: '1' }).level).toBe(0);
    expect(chooseChalk(undefined, false, { FORCE_COLOR: '1' }).level).toBe(1);
    expect(chooseChalk(undefined, true, { FORCE_COLOR: '0' }).level).toBe(0);
    expect(chooseChalk(undefined, true, { NO_COLOR: '1' }).level).toBe(0);
    expect(chooseChalk(undefined, true, { NO_COLOR: '' }).level).toBeGreaterThan(0);
    expect(chooseChalk(undefined, true, {}).level).toBeGreaterThan(0);
    expect(chooseChalk(undefined, false, {}).level).toBe(0);
    // A terminal that says it cannot show colour gets none, unless forced.
    expect(chooseChalk(undefined, true, { TERM: 'dumb' }).level).toBe(0);
    expect(chooseChalk(true, true, { TERM: 'dumb' }).level).toBeGreaterThan(0);
  });
});

describe('interrupts', () => {
  it('stop the reading on the first signal and exit at once (130) on the second', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      let stops = 0;
      const stopListening = processIo().onInterrupt(() => stops++);
      process.emit('SIGINT');
      expect(stops).toBe(1);
      expect(exit).not.toHaveBeenCalled();
      process.emit('SIGINT');
      expect(exit).toHaveBeenCalledWith(130);
      stopListening();
      process.emit('SIGTERM' as 'SIGINT');
      expect(stops).toBe(1);
    } finally {
      exit.mockRestore();
    }
  });
});

describe('progress bar', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webmail-log-progress-'));
  const big = join(dir, 'big.log');
  const unit = Buffer.from(log(pair('10:00:00')));
  writeFileSync(big, Buffer.concat(Array.from({ length: Math.ceil(51e6 / unit.length) }, () => unit)));

  it('shows on a terminal for an input over 50 MB, and is wiped before the report', async () => {
    const fake = io({ stderrIsTTY: true });
    expect(await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', big], fake)).toBe(0);
    expect(fake.errText).toMatch(/^\r\[[#.]{30}\] +\d+%/);
    expect(fake.errText.endsWith('\r\x1b[K')).toBe(true);
    expect(JSON.parse(fake.outText).summary.refreshPairs).toBeGreaterThan(0);
  });

  it('stays away in CI and when stderr is not a terminal', async () => {
    for (const over of [{ stderrIsTTY: true, env: { CI: 'true' } }, { stderrIsTTY: false }]) {
      const fake = io(over);
      await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', big], fake);
      expect(fake.errText).toBe('');
    }
  });
});

describe('a long report to stdout', () => {
  it('is written about 48 KiB at a time, which a pipe takes whole, each piece once stdout has drained', async () => {
    // 2,000 request ids: a JSON report of about 700 KB.
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const s = String(i % 60).padStart(2, '0');
      lines.push(...pair(`10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${s}`, { id: (0x10000000 + i).toString(16) }));
    }
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-drain-'));
    const path = join(dir, 'errors.log');
    writeFileSync(path, log(...lines));
    const written: number[] = [];
    let waiting = false;
    let waits = 0;
    const fake = io({
      out(text: string) {
        // Nothing is written while a wait for drain is under way.
        expect(waiting).toBe(false);
        written.push(text.length);
        fake.outText += text;
      },
      outDrained: async () => {
        waiting = true;
        waits++;
        await new Promise((r) => setImmediate(r));
        waiting = false;
      },
    });
    expect(await run(['node', 'webmail-log', 'analyse', '--format', 'json', path], fake)).toBe(0);
    expect(JSON.parse(fake.outText).requestIds).toHaveLength(2000);
    // The document's head; the rows in pieces of a write's worth and a row, within a
    // pipe's 64 KiB, each waited out; then the document's tail (signatures, timeline) whole.
    expect(written.length).toBeGreaterThan(5);
    expect(written[0]).toBeLessThan(WRITE_PIECE);
    expect(waits).toBe(written.length - 2);
    for (const n of written.slice(1, -2)) {
      expect(n).toBeGreaterThanOrEqual(WRITE_PIECE);
      expect(n).toBeLessThan(1 << 16);
    }
  });
});
