// What the program reads and writes besides its arguments; tests replace it.

import { stdinIsLive, stdinIsReadable } from './input/source.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  stdinIsTTY: boolean;
  /** stdin is a pipe, a socket or a file: something to read when no input is named. */
  stdinIsReadable: boolean;
  /** stdin is a pipe or a terminal: a stream that may never end. */
  stdinIsLive: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Calls `stop` on SIGINT or SIGTERM; returns a function that stops listening. */
  onInterrupt(stop: () => void): () => void;
}

/** Exit status after a second SIGINT: the shell's 128 + 2. */
const INTERRUPTED = 130;

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stdinIsTTY: process.stdin.isTTY === true,
    stdinIsReadable: stdinIsReadable(),
    stdinIsLive: stdinIsLive(),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    onInterrupt(stop) {
      let seen = 0;
      // The first signal ends the reading and lets the summary be printed; a second
      // one means "now".
      const handler = () => {
        if (++seen > 1) {
          process.exit(INTERRUPTED);
          return;
        }
        stop();
      };
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}
