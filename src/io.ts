// What the program reads and writes besides its arguments; tests replace it.

import { once } from 'node:events';
import { fstatSync, write } from 'node:fs';
import { stdinIsLive, stdinIsReadable } from './input/source.js';
import { onInterrupt } from './process.js';
import { POOL_WRITE_PIECE, WRITE_PIECE } from './report/reporter.js';

export interface Io {
  out(text: string): void;
  /**
   * Resolves once what out() wrote has mostly left the process. A pipe takes 64 KiB at a
   * time and Node queues the rest: a report of 40 MB, written without waiting, was held
   * whole in memory (40 MB more peak RSS). Absent: nothing to wait for.
   */
  outDrained?(): Promise<void>;
  /**
   * Writes bytes the caller will not write over before this resolves: when they have left
   * the process (the write's callback), not merely been queued. The caller may make its
   * next piece meanwhile, and writes nothing else before. Absent: out() gets them as text.
   */
  outLent?(bytes: Uint8Array): Promise<void>;
  /** Bytes of a write to stdout (absent: WRITE_PIECE). */
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

/** Whether stdout is a pipe or a socket (as Node makes a child's stdout): not a file nor a terminal. */
function stdoutIsPipe(): boolean {
  try {
    const stat = fstatSync(1);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Lent bytes written into a pipe or a socket by a thread of libuv's pool, while this
 * thread makes the next piece. Written by stdout's stream, each piece waited for this
 * thread's event loop, and the next piece for the write. *short*'s report read by another
 * process, from the first byte to the exit: 85.5-87 ms so (in writes of 160 KiB, the
 * best for the stream), 72-73 so (in writes of 512 KiB, ten interleaved runs each). The
 * pool's write(2) needs stdout in blocking mode (Node sets it non-blocking): it is put in
 * it once nothing is queued on the stream, whose later writes then block until written,
 * in order. Until then, and where a handle cannot be put so, the stream writes the piece.
 * An error is stdout's 'error' event's to handle (process.ts), as for the stream's writes.
 */
function lentWriter(pipe: boolean): (bytes: Uint8Array) => Promise<void> {
  const byStream = (bytes: Uint8Array) => new Promise<void>((resolve) => void process.stdout.write(bytes, () => resolve()));
  let blocking = false;
  /** Whether stdout is still to be put in blocking mode: once, and only into a pipe. */
  let toTry = pipe;
  return (bytes) => {
    if (toTry && process.stdout.writableLength === 0) {
      const handle = (process.stdout as unknown as { _handle?: { setBlocking?(on: boolean): number } })._handle;
      blocking = handle?.setBlocking?.(true) === 0;
      toTry = false;
    }
    return blocking ? writeAll(bytes) : byStream(bytes);
  };
}

/** Writes all of `bytes` to stdout (blocking) from libuv's pool; resolves once written or failed. */
function writeAll(bytes: Uint8Array): Promise<void> {
  return new Promise<void>((resolve) => {
    const from = (at: number) =>
      write(1, bytes, at, bytes.length - at, null, (err, n) => {
        if (err) {
          process.stdout.emit('error', err);
          resolve();
        } else if (at + n < bytes.length) {
          from(at + n);
        } else {
          resolve();
        }
      });
    from(0);
  });
}

export function processIo(): Io {
  const pipe = stdoutIsPipe();
  return {
    out: (text) => void process.stdout.write(text),
    // `once` rejects if stdout fails meanwhile (EPIPE is handled in process.ts).
    outDrained: async () => {
      if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
    },
    outLent: lentWriter(pipe),
    outPieceBytes: pipe ? POOL_WRITE_PIECE : WRITE_PIECE,
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
