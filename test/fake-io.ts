// A stand-in for the process, for running the command in a test: it records what is
// written, and says what the test tells it about terminals and the environment.

import type { Io } from '../src/io.js';

export type FakeIo = Io & { outText: string; errText: string };

export function fakeIo(over: Partial<Io> = {}): FakeIo {
  const o = {
    outText: '',
    errText: '',
    stdinIsTTY: false,
    stdinIsReadable: true,
    stdinIsLive: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    env: {},
    onInterrupt: () => () => {},
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
