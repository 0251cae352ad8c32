// Following a file like `tail -F`, without losing or repeating a byte through what
// logrotate does to it:
// - rename (with or without `create`, numbered or dateext): the old file is drained to
//   its end through the handle still open, then the new one is read from its start;
// - copytruncate: the file shrinks, or is emptied and grows again before we look. Files
//   are told apart by a fingerprint, their first bytes (as Vector's file source and
//   Filebeat do), not by size alone; the bytes not read before the truncation are read
//   from the copy (errors.log.1, errors.log-YYYYMMDD) whose fingerprint is ours;
// - a file that does not exist yet (the service creates errors.log at its first error).
// Changes are noticed at once through a watch on the file's directory (inotify), with
// polling as the fallback (network filesystems, exhausted watch limits).
// A checkpoint (fingerprint, byte offset, line) says where reading stands; resumed from
// one, reading goes on exactly there, through rotations that happened in between.

import { watch, type FSWatcher } from 'node:fs';
import { open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import { reason } from './source.js';

/** What a follower uses of a feed: `end(lineBase)` closes what was read and starts afresh. */
type FollowTarget = Pick<Feed, 'push' | 'flush' | 'end' | 'pending'>;

/** Where reading of a followed file stands. */
export interface Checkpoint {
  /** The file's first bytes (up to FINGERPRINT_BYTES), base64: which file this is. */
  fingerprint: string;
  /** Bytes of it read and handed on. */
  offset: number;
  /** Lines before `offset`. */
  line: number;
}

export interface FollowOptions {
  /** Read what the file already holds first, instead of starting at its end. */
  fromStart: boolean;
  /** How often to look for changes when no watch event comes (the fallback). */
  pollMs: number;
  /** Hand on a half-written entry after the file has been quiet this long. */
  flushAfterMs: number;
  signal: AbortSignal;
  /** Where to resume (a saved checkpoint); null: start as `fromStart` says. */
  resume?: Checkpoint | null;
  /** Hears where reading stands, after every read: everything before it is handed on. */
  onCheckpoint?: (c: Checkpoint) => void;
  /** Takes a remark that is no error (waiting for the file, bytes a rotation took away). */
  note?: (text: string) => void;
}

/** Bytes of a file's start that tell it from another. */
export const FINGERPRINT_BYTES = 256;
const BLOCK = 1 << 20;

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** The first `n` bytes of a file (fewer when it is shorter). */
async function headOf(fh: FileHandle, n: number): Promise<Buffer> {
  const b = Buffer.alloc(n);
  const { bytesRead } = await fh.read(b, 0, n, 0);
  return b.subarray(0, bytesRead);
}

/** The offset just after the last complete line of the first `size` bytes, and the lines before it. */
async function endOfLastLine(fh: FileHandle, size: number, buf: Buffer): Promise<{ offset: number; lines: number }> {
  let pos = 0;
  let lines = 0;
  let offset = 0;
  while (pos < size) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    const view = buf.subarray(0, bytesRead);
    for (let i = view.indexOf(10); i >= 0; i = view.indexOf(10, i + 1)) {
      lines++;
      offset = pos + i + 1;
    }
    pos += bytesRead;
  }
  return { offset, lines };
}

interface Rotated {
  path: string;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Rotation number (errors.log.3: 3), or 0 for a dateext name. */
  number: number;
}

/**
 * The rotated members of `path` that are plain files (logrotate's `errors.log.N` and
 * dateext `errors.log-…`; compressed ones are not read), oldest first.
 */
async function rotatedFiles(path: string): Promise<Rotated[]> {
  const dir = dirname(path);
  const base = basename(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: Rotated[] = [];
  for (const name of names) {
    if (!name.startsWith(base) || name === base || name.endsWith('.gz') || name.endsWith('.bz2') || name.endsWith('.xz') || name.endsWith('.zst')) continue;
    const rest = name.slice(base.length);
    const numbered = /^\.(\d+)$/.exec(rest);
    if (numbered === null && !rest.startsWith('-')) continue;
    try {
      const st = await stat(join(dir, name));
      if (st.isFile()) out.push({ path: join(dir, name), ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, number: numbered ? Number(numbered[1]) : 0 });
    } catch {
      // rotated away while we looked
    }
  }
  // Oldest first: by when each was last written, then the higher number, then the name.
  return out.sort((a, b) => a.mtimeMs - b.mtimeMs || b.number - a.number || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Wakes the follower when something happens in the file's directory, else after `pollMs`. */
class Waker {
  private watcher: FSWatcher | null = null;
  private wake: (() => void) | null = null;
  private woken = false;

  constructor(path: string) {
    const base = basename(path);
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
        if (name === null || name.startsWith(base)) this.fire();
      });
      this.watcher.on('error', () => this.close());
    } catch {
      // No watch to be had (a network filesystem, the watch limit): polling alone.
      this.watcher = null;
    }
  }

  private fire(): void {
    this.woken = true;
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Waits for an event or `ms`; false when `signal` aborted. */
  async wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    if (this.woken) {
      this.woken = false;
      return true;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      const onAbort = () => done();
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake = done;
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve();
      }
    });
    this.woken = false;
    this.wake = null;
    return !signal.aborted;
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }
}

/**
 * Follows `path` into `target` until `opts.signal` aborts. Returns where reading stood
 * then (all bytes read handed on once the caller ends the target), or null when the
 * file never appeared.
 */
export async function followFile(path: string, target: FollowTarget, opts: FollowOptions): Promise<Checkpoint | null> {
  const buf = Buffer.allocUnsafe(BLOCK);
  const waker = new Waker(path);
  let fh: FileHandle | null = null;
  let ino = -1;
  let offset = 0;
  /** The file's first bytes, as far as read (up to FINGERPRINT_BYTES). */
  let head: Buffer = Buffer.alloc(0);
  let opened = 0;
  let lastData = Date.now();
  let quiet = true;
  let waitingSaid = false;
  let resume = opts.resume ?? null;
  /** Only a file there at the first look is read from its end; one that appears later is new. */
  let firstLook = true;
  /** The last look after a stop: read to the end. */
  let stopping = false;

  /** Where reading stands: everything before it handed on (a half-read entry is read again on resume). */
  const checkpoint = (): Checkpoint => {
    const pending = target.pending();
    return { fingerprint: head.toString('base64'), offset: offset - pending.bytes, line: pending.lines };
  };

  /** Pushes bytes [from, to) of `handle`, keeping the fingerprint; returns the bytes pushed. */
  const pushFrom = async (handle: FileHandle, from: number, to = Infinity): Promise<number> => {
    let pos = from;
    while (pos < to) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, to - pos), pos);
      if (bytesRead === 0) break;
      target.push(buf.subarray(0, bytesRead));
      pos += bytesRead;
    }
    return pos - from;
  };

  /** Reads new bytes of the current file; returns how many. */
  const drain = async (handle: FileHandle): Promise<number> => {
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      if (bytesRead === 0) break;
      // The fingerprint grows with the first bytes read, up to its size.
      if (offset < FINGERPRINT_BYTES && head.length === offset) head = Buffer.concat([head, buf.subarray(0, Math.min(bytesRead, FINGERPRINT_BYTES - offset))]);
      offset += bytesRead;
      got += bytesRead;
      target.push(buf.subarray(0, bytesRead));
      // Asked to stop while reading a backlog: the last look after the loop reads the rest.
      if (opts.signal.aborted && !stopping) break;
    }
    if (got > 0) opts.onCheckpoint?.(checkpoint());
    return got;
  };

  /** The file at `path` starts afresh (a new file, or this one truncated): from its first byte. */
  const startOver = (): void => {
    target.end(0);
    offset = 0;
    head = Buffer.alloc(0);
  };

  /** A rotated file read whole, as a file of its own (one that is gone meanwhile is passed over). */
  const readWhole = async (file: string): Promise<void> => {
    let handle: FileHandle | null = null;
    try {
      handle = await open(file, 'r');
      startOver();
      await pushFrom(handle, 0);
    } catch {
      // rotated away meanwhile
    } finally {
      await handle?.close();
    }
  };

  /**
   * The bytes of the file we were reading that a rotation took away before we read them,
   * from the rotated copy whose fingerprint is ours, and then the rotated files written
   * after it (several rotations while we were away), each from its start.
   */
  const catchUp = async (exceptIno: number): Promise<void> => {
    const rotated = (await rotatedFiles(path)).filter((r) => r.ino !== exceptIno);
    let at = -1;
    for (let i = rotated.length - 1; i >= 0 && at < 0; i--) {
      const r = rotated[i];
      if (r.size < offset) continue;
      let handle: FileHandle | null = null;
      try {
        handle = await open(r.path, 'r');
        if ((await headOf(handle, head.length)).equals(head)) {
          at = i;
          await pushFrom(handle, offset);
        }
      } catch {
        // gone meanwhile
      } finally {
        await handle?.close();
      }
    }
    if (at < 0) {
      if (offset > 0) opts.note?.(`${path} was rotated or truncated; what it held after byte ${offset} was not found in a rotated copy`);
      return;
    }
    // Files rotated after the one we were reading: read whole, oldest first.
    for (const r of rotated.slice(at + 1)) await readWhole(r.path);
  };

  const tryOpen = async (): Promise<FileHandle | null> => {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (missing(err)) return null;
      throw new InputError(`cannot read ${path}: ${reason(err)}`);
    }
    const st = await handle.stat();
    if (st.isDirectory()) {
      await handle.close();
      throw new InputError(`cannot read ${path}: is a directory`);
    }
    ino = st.ino;
    if (resume !== null) {
      // Resuming: this file, if its start is the one we were reading; else that one was
      // rotated while we were away and is read to its end first.
      const was = Buffer.from(resume.fingerprint, 'base64');
      head = was;
      offset = resume.offset;
      target.end(resume.line);
      resume = null;
      if (st.size >= offset && (await headOf(handle, was.length)).equals(was)) return handle;
      await catchUp(ino);
      startOver();
    } else if (opened++ > 0) {
      startOver();
    } else if (!opts.fromStart && firstLook) {
      const start = await endOfLastLine(handle, st.size, buf);
      offset = start.offset;
      head = await headOf(handle, Math.min(FINGERPRINT_BYTES, offset));
      target.end(start.lines);
    }
    return handle;
  };

  /**
   * One look at the file: read what is new, and follow a truncation or a rename. Returns
   * the bytes read, or -1 when it should look again at once (the file changed under it).
   */
  const step = async (handle: FileHandle): Promise<number> => {
    const got = await drain(handle);
    // Truncated (copytruncate)? Smaller than what was read, or another start: it may
    // have been emptied and grown past our offset between two looks.
    const size = (await handle.stat()).size;
    if (size < offset || (head.length > 0 && !(await headOf(handle, head.length)).equals(head))) {
      await catchUp(ino);
      startOver();
      return -1;
    }
    let current: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      current = await stat(path);
    } catch (err) {
      if (!missing(err)) throw new InputError(`cannot read ${path}: ${reason(err)}`);
    }
    if (current !== null && current.ino !== ino) {
      // Renamed away, a new file in its place: what the old one still got, then any file
      // rotated in between, then the new one.
      await drain(handle);
      const old = ino;
      await handle.close();
      fh = null;
      const rotated = await rotatedFiles(path);
      const oldInfo = rotated.find((r) => r.ino === old);
      for (const r of rotated) {
        if (oldInfo !== undefined && r.ino !== old && r.ino !== current.ino && r.mtimeMs > oldInfo.mtimeMs) await readWhole(r.path);
      }
      return -1;
    }
    return got;
  };

  try {
    while (!opts.signal.aborted) {
      if (fh === null) {
        fh = await tryOpen();
        firstLook = false;
        if (fh === null) {
          if (!waitingSaid) opts.note?.(`waiting for ${path} to appear`);
          waitingSaid = true;
          if (!(await waker.wait(opts.pollMs, opts.signal))) return null;
          continue;
        }
        opened = Math.max(opened, 1);
        // Where reading starts is a checkpoint too: a restart goes on from there.
        opts.onCheckpoint?.(checkpoint());
      }
      const got = await step(fh);
      if (got < 0) continue;
      if (got > 0) {
        lastData = Date.now();
        quiet = false;
        continue;
      }
      if (!quiet && Date.now() - lastData >= opts.flushAfterMs) {
        target.flush();
        opts.onCheckpoint?.(checkpoint());
        quiet = true;
      }
      await waker.wait(quiet ? opts.pollMs : Math.min(opts.pollMs, opts.flushAfterMs), opts.signal);
    }
    // Stopped: what was written before the stop is still read, through a last rotation.
    stopping = true;
    for (let looks = 0; looks < 4; looks++) {
      if (fh === null) fh = await tryOpen();
      if (fh === null || (await step(fh)) >= 0) break;
    }
    // Where the next run goes on: after every byte read (the caller hands on the rest).
    return opened === 0 ? null : { fingerprint: head.toString('base64'), offset, line: target.pending().read };
  } finally {
    waker.close();
    await fh?.close();
  }
}
