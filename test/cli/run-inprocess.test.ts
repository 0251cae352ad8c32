// run() with a stand-in for the process: cases a spawned child cannot show (a terminal).

import { describe, expect, it, vi } from 'vitest';
import { chooseChalk, run, type Io } from '../../src/cli.js';
import { processIo } from '../../src/io.js';

function io(over: Partial<Io> = {}): Io & { outText: string; errText: string } {
  const o = {
    outText: '',
    errText: '',
    stdinIsTTY: false,
    stdinIsLive: false,
    stdoutIsTTY: false,
    onInterrupt: () => () => {},
    env: {},
    out(text: string) {
      o.outText += text;
    },
    err(text: string) {
      o.errText += text;
    },
    ...over,
  };
  return o;
}

describe('run', () => {
  it('prints its help instead of waiting on a terminal when no input is named', async () => {
    const fake = io({ stdinIsTTY: true, stdinIsLive: true });
    expect(await run(['node', 'webmail-log', 'analyse'], fake)).toBe(2);
    expect(fake.errText).toMatch(/^Usage: webmail-log analyse/);
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
