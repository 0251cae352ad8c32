// What the program reads and writes besides its arguments; tests replace it.

import { once } from 'node:events';
import { fstatSync } from 'node:fs';
import { stdinIsLive, stdinIsReadable } from './input/source.js';
import { onInterrupt } from './process.js';
import { SOCKET_WRITE_PIECE, WRITE_PIECE } from './report/reporter.js';

export interface Io {
  out(text: string): void;
  /**
   * Resolves once what out() wrote has mostly left the process. A pipe takes 64 KiB at a
   * time and Node queues the rest: a report of 40 MB, written without waiting, was held
   * whole in memory (40 MB more peak RSS). Absent: nothing to wait for.
   */
  outDrained?(): Promise<void>;
  /**
   * Writes bytes the caller will write over once this resolves: when they have left the
   * process (the write's callback), not merely been queued. Absent: out() gets them as text.
   */
  outLent?(bytes: Uint8Array): Promise<void>;
  /** Bytes of a write to stdout, as much as what it goes into holds unread (absent: WRITE_PIECE). */
  outPieceBytes?: number;
  err(text: string): void;
  stdinIsTTY: boolean;
  /** stdin is a pipe, a socket or a file: something to read when no input is named. */
  stdinIsReadable: boolean;
  /** stdin is a pipe or a terminal: a stream that may never end. */
  stdinIsLive: boolean;
  stdoutIsTTY: boolean;
  /** The terminal's width, when stdout is one. */
  stdoutColumns?: number;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Calls `stop` on SIGINT or SIGTERM; returns a function that stops listening. */
  onInterrupt(stop: () => void): () => void;
}

/** Whether stdout is a socket (as Node makes a child's stdout), not a pipe, a file or a terminal. */
function stdoutIsSocket(): boolean {
  try {
    return fstatSync(1).isSocket();
  } catch {
    return false;
  }
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    // `once` rejects if stdout fails meanwhile (EPIPE is handled in process.ts).
    outDrained: async () => {
      if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
    },
    // An error is stdout's 'error' event's to handle (process.ts): the write is over either way.
    outLent: (bytes) => new Promise<void>((resolve) => void process.stdout.write(bytes, () => resolve())),
    outPieceBytes: stdoutIsSocket() ? SOCKET_WRITE_PIECE : WRITE_PIECE,
    err: (text) => void process.stderr.write(text),
    stdinIsTTY: process.stdin.isTTY === true,
    stdinIsReadable: stdinIsReadable(),
    stdinIsLive: stdinIsLive(),
    stdoutIsTTY: process.stdout.isTTY === true,
    stdoutColumns: process.stdout.isTTY ? process.stdout.columns : undefined,
    stderrIsTTY: process.stderr.isTTY === true,
    env: process.env,
    onInterrupt,
  };
}
