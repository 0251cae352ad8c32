// Every input of a run, read into one stream: files and stdin to their end (a large file
// by the parallel reader), or followed files until stopped. Live inputs hand on a
// half-written entry once they go quiet. Where each reader comes from: input/ for bytes,
// parallel/ for the fast path; both feed the same seam (feed.ts).

import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { InputError } from './errors.js';
import type { Feed, Stream } from './feed.js';
import type { CheckpointStore } from './input/checkpoints.js';
import { followFile } from './input/follow.js';
import { Parsers } from './parallel/parsers.js';
import { readInParallel, readsInParallel, workerCount } from './parallel/read.js';
import { readWhole } from './parallel/whole.js';
import { readingOrder } from './input/order.js';
import { isLiveInput } from './input/live.js';
import { closeInputs, hasGzipMagic, inputBytes, looksBinary, openInputs, reason, type Input } from './input/source.js';

export interface ReadOptions {
  /** Follow the named files like `tail -F` instead of reading them to their end. */
  follow: boolean;
  /** With follow: read what the files hold first. */
  fromStart: boolean;
  /** Hand on a half-written entry of a live input after this much quiet. */
  flushAfterMs: number;
  /** Whether stdin is a stream that may never end (a pipe): then it is flushed when quiet. */
  stdinLive: boolean;
  signal: AbortSignal;
  pollMs?: number;
  /** Threads that may parse one large file (1: this thread alone). */
  jobs: number;
  /** Runs whose regular files hold this much or more are read by `jobs` threads (each file of more than one chunk). */
  parallelFrom: number;
  /** Hears of bytes as they are read (for a progress bar). */
  onRead?: (bytes: number) => void;
  /** Takes a remark about an input that is no error (a binary-looking file). */
  note?: (text: string) => void;
  /** With follow: where each file stood, read at the start and kept up to date (--state). */
  state?: CheckpointStore | null;
}

function binaryNote(name: string, opts: ReadOptions): void {
  opts.note?.(`${name} looks like a binary file (it holds NUL bytes); reading it as a log all the same`);
}

/** The descriptor of a file input that may be read at any offset (stdin counts when redirected from a file), or null. */
function inputFd(input: Input): number | null {
  return input.stream ? null : input.name === '-' ? 0 : input.fd;
}

/** Whether the file open as `fd` starts with gzip's magic bytes. */
function isGzip(fd: number): boolean {
  const magic = Buffer.alloc(2);
  return hasGzipMagic(magic.subarray(0, readSync(fd, magic, 0, 2, 0)));
}

/** A regular file among the inputs: its descriptor and status, whether it is gzipped, and the bytes it holds as read. */
interface RegularFile {
  fd: number;
  st: Stats;
  gzip: boolean;
  /** A gzipped one's as its last member says it holds unpacked (its last four bytes: the size modulo 4 GiB). */
  bytes: number;
}

/** The input as a regular file, read once for all that is decided of it; null when it is not one. */
function regularFile(input: Input): RegularFile | null {
  const fd = inputFd(input);
  if (fd === null) return null;
  const st = fstatSync(fd);
  if (!st.isFile()) return null;
  const gzip = isGzip(fd);
  let bytes = st.size;
  if (gzip && bytes >= 18) {
    const tail = Buffer.alloc(4);
    if (readSync(fd, tail, 0, 4, bytes - 4) === 4) bytes = Math.max(bytes, tail.readUInt32LE(0));
  }
  return { fd, st, gzip, bytes };
}

/**
 * How a file input is read, in a run whose regular files hold `total` bytes: cut into
 * chunks for several threads (a plain file: its size), whole by a worker while this
 * thread analyses (a gzipped one, named), or by this thread alone (null).
 */
function parallelWay(input: Input, file: RegularFile | null, opts: ReadOptions, total: number): number | 'whole' | null {
  if (file === null || opts.jobs < 2) return null;
  // Stdin is read from where it was cut (SPEC §1), by this thread's own rule for that.
  if (file.gzip) return input.name !== '-' && total >= opts.parallelFrom ? 'whole' : null;
  if (!readsInParallel(file.st.size, total, opts.jobs, opts.parallelFrom)) return null;
  if (input.name === '-' && !stdinOpens(file.st.ino, file.st.dev)) return null;
  return file.st.size;
}

/**
 * Where a worker opens a file this thread has open: the descriptor's own file through
 * /proc, so that a rotation renaming it meanwhile changes nothing; its name where there
 * is no /proc. (A descriptor opened here and closed by a worker draws a warning from Node.)
 */
function openPathOf(fd: number, name: string): string {
  return existsSync('/proc/self/fd') ? `/proc/self/fd/${fd}` : name;
}

/** Where the parsing workers open stdin redirected from a regular file (`- < errors.log`). */
const STDIN_PATH = '/proc/self/fd/0';

/**
 * Whether STDIN_PATH opens the file stdin is (inode `ino` on `dev`), and stdin stands at
 * its start. A file already partly read from is read on from where it stands, by this
 * thread; so is stdin where there is no /proc.
 */
function stdinOpens(ino: number, dev: number): boolean {
  try {
    if (!/^pos:\s*0$/m.test(readFileSync('/proc/self/fdinfo/0', 'utf8'))) return false;
    const fd = openSync(STDIN_PATH, 'r');
    try {
      const st = fstatSync(fd);
      return st.ino === ino && st.dev === dev;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** A followed file may not exist yet, but it may not be a directory or unreadable. */
function checkFollowable(name: string): void {
  try {
    if (statSync(name).isDirectory()) throw new InputError(`cannot follow ${name}: is a directory`);
  } catch (err) {
    if (err instanceof InputError) throw err;
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new InputError(`cannot follow ${name}: ${reason(err)}`);
  }
}

async function readToEnd(input: Input, feed: Feed, opts: ReadOptions, live: boolean): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let first = true;
  try {
    for await (const chunk of inputBytes(input, opts.signal, opts.onRead)) {
      if (first && looksBinary(chunk)) binaryNote(input.name, opts);
      first = false;
      feed.push(chunk);
      if (live) {
        clearTimeout(timer);
        timer = setTimeout(() => feed.flush(), opts.flushAfterMs);
      }
    }
  } finally {
    clearTimeout(timer);
    // What was read of a failing input is still counted and checked.
    feed.end();
    skippedNote(input.name, feed.skippedLines, opts);
  }
}

function skippedNote(name: string, skipped: number, opts: ReadOptions): void {
  if (skipped > 0) opts.note?.(`${name === '-' ? 'stdin' : name} began mid-entry: ${skipped} line${skipped === 1 ? '' : 's'} before its first entry skipped`);
}

/** Bytes the inputs hold, when all of them are files (stdin redirected from one counts). */
export function inputSize(names: readonly string[]): number | null {
  let total = 0;
  for (const name of names) {
    try {
      const st = name === '-' ? fstatSync(0) : statSync(name);
      if (!st.isFile()) return null;
      total += st.size;
    } catch {
      return null;
    }
  }
  return total;
}

/**
 * Reads every input into `checker`, as one stream (SPEC §6). A missing or unreadable
 * input throws an InputError before anything is read (followed files may appear later).
 * Returns the error of an input that failed while being read, if one did.
 */
export async function readInputs(names: readonly string[], checker: Stream, opts: ReadOptions): Promise<InputError | null> {
  if (opts.follow) {
    for (const name of names) if (name !== '-') checkFollowable(name);
    // One failing input stops the others: a followed file never ends by itself.
    const stop = new AbortController();
    opts.signal.addEventListener('abort', () => stop.abort(), { once: true });
    const signal = stop.signal;
    const jobs = names.map(async (name) => {
      const feed = checker.addFile(name);
      try {
        if (name === '-') {
          await readToEnd(openInputs(['-'], opts.stdinLive)[0], feed, { ...opts, signal }, opts.stdinLive);
        } else {
          const state = opts.state ?? null;
          const final = await followFile(name, feed, {
            fromStart: opts.fromStart,
            pollMs: opts.pollMs ?? 200,
            flushAfterMs: opts.flushAfterMs,
            signal,
            resume: state?.get(name) ?? null,
            onCheckpoint: state === null ? undefined : (c) => state.set(name, c),
            note: opts.note,
          });
          feed.end();
          if (state !== null && final !== null) state.set(name, final);
        }
      } catch (err) {
        stop.abort();
        throw err;
      }
    });
    const settled = await Promise.allSettled(jobs);
    opts.state?.save();
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed === undefined) return null;
    const err = (failed as PromiseRejectedResult).reason;
    if (err instanceof InputError) return err;
    throw err;
  }
  const inputs = openInputs(readingOrder(names), opts.stdinLive);
  let parsers: Parsers | null = null;
  try {
    const files = inputs.map(regularFile);
    const total = files.reduce((sum, file) => sum + (file?.bytes ?? 0), 0);
    const ways = inputs.map((input, i) => parallelWay(input, files[i], opts, total));
    // The workers serve every input up to the last read with them.
    const lastWithWorkers = ways.findLastIndex((way) => way !== null);
    // Gzipped files alone need one worker: each is read whole by the first.
    const workers = ways.some((way) => typeof way === 'number') ? workerCount(opts.jobs) : 1;
    for (const [i, input] of inputs.entries()) {
      if (opts.signal.aborted) break;
      // Started before anything is read, so that they load while this thread primes.
      if (i <= lastWithWorkers && (parsers === null || !parsers.usable)) parsers = new Parsers(workers);
      const way = ways[i];
      if (way === 'whole' && parsers !== null) {
        checker.prime();
        const feed = checker.addFile(input.name);
        await readWhole(input.name, openPathOf(input.fd as number, input.name), feed, parsers, {
          signal: opts.signal,
          onRead: opts.onRead,
          onBinary: () => binaryNote(input.name, opts),
        });
        feed.done();
        continue;
      }
      if (typeof way === 'number' && parsers !== null) {
        const size = way;
        const stdin = input.name === '-';
        const fd = stdin ? 0 : (input.fd as number);
        const head = Buffer.alloc(4096);
        if (looksBinary(head.subarray(0, readSync(fd, head, 0, head.length, 0)))) binaryNote(input.name, opts);
        checker.prime();
        const feed = checker.addFile(input.name);
        await readInParallel(input.name, fd, size, opts.jobs, feed, opts.signal, opts.onRead, undefined, stdin ? STDIN_PATH : undefined, parsers);
        if (stdin) skippedNote(input.name, feed.skippedLines, opts);
        feed.done();
        continue;
      }
      const feed = checker.addFile(input.name);
      await readToEnd(input, feed, opts, isLiveInput(input.name, opts.stdinLive));
      feed.done();
    }
    return null;
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  } finally {
    closeInputs(inputs);
    // Not waited for: the workers end on their own core while this thread decides what
    // is pending and writes the report (5-17 ms of *short*'s run were spent waiting here).
    // A process does not exit before its workers have.
    void parsers?.close();
  }
}
