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
    out(text: string | Uint8Array) {
      // Request-id rows come as UTF-8 (row-bytes.ts), whole characters in each piece.
      o.outText += typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
    },
    err(text: string) {
      o.errText += text;
    },
    ...over,
  };
  return o;
}
