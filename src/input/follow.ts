// Following a file like `tail -F`: read by byte offset as it grows, start at its end
// unless told otherwise, and survive what logrotate does to it: rename (drain the old
// file, then switch to the new one), copytruncate (it shrinks: start again at 0), and a
// file that does not exist yet (the service creates errors.log at its first error).

import { open, stat, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import { reason } from './source.js';

/** What a follower uses of a feed: `end(lineBase)` closes what was read and starts afresh. */
type FollowTarget = Pick<Feed, 'push' | 'flush' | 'end'>;

export interface FollowOptions {
  /** Read what the file already holds first, instead of starting at its end. */
  fromStart: boolean;
  /** How often to look for new bytes, rotation and truncation. */
  pollMs: number;
  /** Hand on a half-written entry after the file has been quiet this long. */
  flushAfterMs: number;
  signal: AbortSignal;
}

const BLOCK = 1 << 20;

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

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Follows `path` into `target` until `opts.signal` aborts. */
export async function followFile(path: string, target: FollowTarget, opts: FollowOptions): Promise<void> {
  const buf = Buffer.allocUnsafe(BLOCK);
  let fh: FileHandle | null = null;
  let inode = -1;
  let offset = 0;
  let opened = 0;
  // Only a file there at the start is read from its end; one that appears later is new.
  let fromEnd = !opts.fromStart;
  let lastData = Date.now();
  let quiet = true;

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
    inode = st.ino;
    if (opened++ > 0) {
      target.end(0);
      offset = 0;
    } else if (fromEnd) {
      const start = await endOfLastLine(handle, st.size, buf);
      offset = start.offset;
      target.end(start.lines);
    }
    return handle;
  };

  const drain = async (handle: FileHandle): Promise<number> => {
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      if (bytesRead === 0) return got;
      offset += bytesRead;
      got += bytesRead;
      target.push(buf.subarray(0, bytesRead));
      if (opts.signal.aborted) return got;
    }
  };

  const pause = async (): Promise<boolean> => {
    try {
      await sleep(opts.pollMs, undefined, { signal: opts.signal });
      return true;
    } catch {
      return false;
    }
  };

  try {
    while (!opts.signal.aborted) {
      if (fh === null) {
        fh = await tryOpen();
        fromEnd = false;
        if (fh === null) {
          if (!(await pause())) return;
          continue;
        }
      }
      const got = await drain(fh);
      if (got > 0) {
        lastData = Date.now();
        quiet = false;
      }
      if ((await fh.stat()).size < offset) {
        // copytruncate: the file was emptied under us.
        offset = 0;
        target.end(0);
        continue;
      }
      let current: Awaited<ReturnType<typeof stat>> | null = null;
      try {
        current = await stat(path);
      } catch (err) {
        if (!missing(err)) throw new InputError(`cannot read ${path}: ${reason(err)}`);
      }
      if (current !== null && current.ino !== inode) {
        // Renamed away, a new file in its place: what the old one still got, then the new one.
        await drain(fh);
        await fh.close();
        fh = null;
        continue;
      }
      if (got === 0) {
        if (!quiet && Date.now() - lastData >= opts.flushAfterMs) {
          target.flush();
          quiet = true;
        }
        if (!(await pause())) return;
      }
    }
  } finally {
    await fh?.close();
  }
}
