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

import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import { pageAligned } from './aligned.js';
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
/** Files remembered as read to their end: more than logrotate keeps. */
const DONE_KEPT = 64;
const BLOCK = 1 << 20;

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** The first `n` bytes of a file (fewer when it is shorter). */
async function headOf(fh: OpenFile, n: number): Promise<Buffer> {
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
  /** When it was made (0 where the filesystem does not say): with `ino`, which file it is. */
  birthtimeMs: number;
  /** Rotation number (errors.log.3: 3), or 0 for a dateext name. */
  number: number;
  /** The followed file it was rotated from. */
  live: string;
}

/** Looks at the rotated files before taking a listing that was made mid-rotation. */
const LISTINGS = 8;

/**
 * The rotated members of `path` that are plain files (logrotate's `errors.log.N` and
 * dateext `errors.log-…`; compressed ones are not read), oldest first.
 *
 * A directory is listed and then each name looked up, so a listing made while a rotation
 * shifts the numbers (.4 to .5, .3 to .4, …) can show one file under two numbers, miss
 * one, or name one that is gone: it is taken again. Read as it came, a rotation every
 * few milliseconds lost files and read newer ones before older.
 */
async function rotatedFiles(path: string): Promise<Rotated[]> {
  let out: Rotated[] = [];
  for (let look = 0; look < LISTINGS; look++) {
    const listing = listRotated(path);
    if (listing === null) return [];
    out = listing.files;
    if (listing.whole) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Oldest first: by when each was last written, then the higher number, then the name.
  return out.sort((a, b) => a.mtimeMs - b.mtimeMs || b.number - a.number || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One listing of the rotated files; `whole` is false when it shows a rotation under way. Null: no directory to list. */
function listRotated(path: string): { files: Rotated[]; whole: boolean } | null {
  const dir = dirname(path);
  const base = basename(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const files: Rotated[] = [];
  let whole = true;
  for (const name of names) {
    if (!name.startsWith(base) || name === base || name.endsWith('.gz') || name.endsWith('.bz2') || name.endsWith('.xz') || name.endsWith('.zst')) continue;
    const rest = name.slice(base.length);
    const numbered = /^\.(\d+)$/.exec(rest);
    if (numbered === null && !rest.startsWith('-')) continue;
    try {
      const st = statSync(join(dir, name));
      if (st.isFile()) files.push({ path: join(dir, name), ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, birthtimeMs: bornAt(st), number: numbered ? Number(numbered[1]) : 0, live: path });
    } catch {
      whole = false; // rotated away while we looked
    }
  }
  const inodes = new Set(files.map((f) => f.ino));
  const numbers = files.filter((f) => f.number > 0).map((f) => f.number);
  // Numbered members run without a gap (.1, .2, …): a gap is a number being moved.
  if (inodes.size < files.length || (numbers.length > 0 && Math.max(...numbers) - Math.min(...numbers) + 1 !== numbers.length)) whole = false;
  return { files, whole };
}

/** Whether a file of inode `ino` that starts with `start` is one of `files` (known by inode and first bytes). */
function startsAsOneOf(ino: number, start: Buffer, files: readonly { ino: number; head: Buffer }[]): boolean {
  return files.some((f) => f.ino === ino && start.length >= f.head.length && start.subarray(0, f.head.length).equals(f.head));
}

/**
 * When a file was made, or 0 where that is not known. Without statx, libuv gives the
 * change time as the birth time, and a rename changes that: a birth time equal to the
 * change time is not taken (a rotated file was renamed after it was made).
 */
function bornAt(st: Stats): number {
  return st.birthtimeMs > 0 && st.birthtimeMs !== st.ctimeMs ? st.birthtimeMs : 0;
}

/**
 * Whether `st` is the file `r`. An inode number goes to the next new file once its file
 * is gone, which under a rotation every few milliseconds is within one look: the time it
 * was made tells the two apart where the filesystem keeps it.
 */
function isFile(ino: number, birthtimeMs: number, r: Rotated): boolean {
  return ino === r.ino && (r.birthtimeMs === 0 || birthtimeMs === r.birthtimeMs);
}

/**
 * The rotated file `r` opened: the file itself, found by its inode, not whatever its name
 * holds by now (the next rotation moves errors.log.1 to .2 and puts another file at .1).
 * Null when it is gone.
 */
async function openRotated(r: Rotated): Promise<OpenFile | null> {
  let path = r.path;
  for (let tries = 0; tries < 8; tries++) {
    let fd = -1;
    try {
      fd = openSync(path, 'r');
      const st = fstatSync(fd);
      if (isFile(st.ino, bornAt(st), r)) return new RotatedFile(fd);
    } catch {
      // moved on meanwhile: looked up again below
    }
    if (fd >= 0) closeSync(fd);
    // A rotated file only moves up the numbers: its inode at a lower one is a newer file
    // that was given the number once this one was gone.
    const now = (await rotatedFiles(r.live)).find((f) => isFile(f.ino, f.birthtimeMs, r) && (r.number === 0 || f.number >= r.number));
    if (now === undefined) return null;
    path = now.path;
  }
  return null;
}

/** What reading uses of an open file: a FileHandle, or a RotatedFile. */
interface OpenFile {
  read(buf: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<Stats>;
  close(): Promise<void>;
}

/**
 * A rotated file, read with blocking calls. Each call of fs/promises waits its turn in
 * libuv's thread pool; a rotation every few milliseconds moved a file on between the look
 * that found it and the read, and files were rotated away unread. These calls take
 * microseconds on a local disk.
 */
class RotatedFile implements OpenFile {
  constructor(private readonly fd: number) {}

  async read(buf: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    return { bytesRead: readSync(this.fd, buf, offset, length, position) };
  }

  async stat(): Promise<Stats> {
    return fstatSync(this.fd);
  }

  async close(): Promise<void> {
    closeSync(this.fd);
  }
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
  // Aligned: a catch-up from a page boundary reads each block at full speed (see aligned.ts).
  const buf = pageAligned(BLOCK);
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
  /** Files read to their end (the newest few), known by inode and first bytes: none is read twice. */
  const done: { ino: number; head: Buffer; birthtimeMs: number }[] = [];
  /** The file left at a rename: rotated files written after it are read before the new one. */
  let left: { ino: number; head: Buffer; mtimeMs: number } | null = null;

  /** Where reading stands: everything before it handed on (a half-read entry is read again on resume). */
  const checkpoint = (): Checkpoint => {
    const pending = target.pending();
    return { fingerprint: head.toString('base64'), offset: offset - pending.bytes, line: pending.lines };
  };

  /** Notes a file read to its end. */
  const finished = (fileIno: number, fileHead: Buffer, birthtimeMs: number): void => {
    // An empty file has nothing to read again; its inode, given to the next file, must
    // not make that one look read.
    if (fileHead.length === 0) return;
    done.push({ ino: fileIno, head: fileHead, birthtimeMs });
    if (done.length > DONE_KEPT) done.shift();
  };

  /**
   * Whether the rotated file `r` is one of `files` (its inode, and its first bytes: an
   * inode number is reused once its file is gone).
   */
  const isOneOf = async (r: Rotated, files: readonly { ino: number; head: Buffer }[]): Promise<boolean> => {
    if (!files.some((f) => f.ino === r.ino)) return false;
    const handle = await openRotated(r);
    if (handle === null) return false;
    try {
      return startsAsOneOf(r.ino, await headOf(handle, FINGERPRINT_BYTES), files);
    } finally {
      await handle.close();
    }
  };

  /** Pushes bytes [from, to) of `handle`, keeping the fingerprint; returns the bytes pushed. */
  const pushFrom = async (handle: OpenFile, from: number, to = Infinity): Promise<number> => {
    let pos = from;
    while (pos < to) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, to - pos), pos);
      if (bytesRead === 0) break;
      target.push(buf.subarray(0, bytesRead));
      pos += bytesRead;
      // A rotated file is read with blocking calls: between blocks of a large one, the
      // process still answers a signal or a scrape.
      if (bytesRead === buf.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return pos - from;
  };

  /** Reads new bytes of the current file; returns how many. */
  const drain = async (handle: FileHandle): Promise<number> => {
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      if (bytesRead === 0) break;
      // copytruncate may have emptied and refilled the file just before this read: then
      // these bytes are the new file's, not the rest of ours. Only bytes read while the
      // start was still ours are handed on; the rest of ours comes from the copy (catchUp).
      if (head.length > 0 && !(await headOf(handle, head.length)).equals(head)) break;
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

  /**
   * The file at `path` starts afresh (a new file, or this one truncated): from its first
   * byte, whose first bytes (`start`) may be known already.
   */
  const startOver = (start: Buffer = Buffer.alloc(0)): void => {
    target.end(0);
    offset = 0;
    head = start;
  };

  /**
   * A rotated file read whole, as a file of its own, unless it was read already (one of
   * `done`). It is opened once for both: under a rotation every few milliseconds, every
   * extra look let another file be rotated away unread.
   */
  const readWhole = async (r: Rotated): Promise<{ head: Buffer; bytes: number } | null> => {
    const handle = await openRotated(r);
    if (handle === null) {
      // Gone before it was read, unless it is one read already.
      if (!done.some((f) => isFile(f.ino, f.birthtimeMs, r))) {
        opts.note?.(`${r.path} was rotated away before it was read: its lines are missing`);
      }
      return null;
    }
    try {
      const start = await headOf(handle, FINGERPRINT_BYTES);
      if (startsAsOneOf(r.ino, start, done)) return null;
      startOver();
      const bytes = await pushFrom(handle, 0);
      const fileHead = await headOf(handle, FINGERPRINT_BYTES);
      finished(r.ino, fileHead, r.birthtimeMs);
      return { head: fileHead, bytes };
    } catch {
      // unreadable meanwhile
      return null;
    } finally {
      await handle.close();
    }
  };

  /**
   * The bytes of the file we were reading that a rotation took away before we read them,
   * from the rotated copy whose fingerprint is ours, and then the rotated files written
   * after it (several rotations while we were away), each from its start. Then reading
   * goes on in the file at `path`, which started with `now` when it was found changed:
   * from its start, or, when one of those copies starts so too (copytruncate copied it,
   * and it was read whole here), after what that copy held. Started afresh there, those
   * lines were read twice.
   */
  const catchUp = async (exceptIno: number, now: Buffer): Promise<void> => {
    const rotated = (await rotatedFiles(path)).filter((r) => r.ino !== exceptIno);
    let at = -1;
    for (let i = rotated.length - 1; i >= 0 && at < 0; i--) {
      const r = rotated[i];
      if (r.size < offset) continue;
      const handle = await openRotated(r);
      if (handle === null) continue;
      try {
        if ((await headOf(handle, head.length)).equals(head)) {
          at = i;
          await pushFrom(handle, offset);
          finished(r.ino, head, r.birthtimeMs);
        }
      } catch {
        // unreadable meanwhile
      } finally {
        await handle.close();
      }
    }
    if (at < 0) {
      if (offset > 0) opts.note?.(`${path} was rotated or truncated; what it held after byte ${offset} was not found in a rotated copy`);
      startOver(now);
      return;
    }
    // Files rotated after the one we were reading: read whole, oldest first.
    let copyOfNow: { head: Buffer; bytes: number } | null = null;
    for (const r of rotated.slice(at + 1)) {
      const read = await readWhole(r);
      // Either start may be the shorter: a copy made before the file grew, or the
      // file looked at before it was copied.
      const n = read === null ? 0 : Math.min(now.length, read.head.length);
      if (read !== null && n > 0 && read.head.subarray(0, n).equals(now.subarray(0, n))) copyOfNow = read;
    }
    if (copyOfNow === null) startOver(now);
    else {
      head = copyOfNow.head;
      offset = copyOfNow.bytes;
    }
  };

  /**
   * The files rotated after the one left at a rename and before the one now open
   * (`openIno`), read whole, oldest first: several rotations can pass between two looks.
   * "After" is after it in the rotated files' order when it is still among them, else
   * last written no earlier than it was.
   */
  const readBetween = async (openIno: number): Promise<void> => {
    const was = left;
    left = null;
    if (was === null) return;
    const rotated = await rotatedFiles(path);
    let at = -1;
    for (let i = rotated.length - 1; i >= 0 && at < 0; i--) if (await isOneOf(rotated[i], [was])) at = i;
    const later = at >= 0 ? rotated.slice(at + 1) : rotated.filter((r) => r.mtimeMs >= was.mtimeMs);
    for (const r of later) {
      // The open file rotated too: the files after it are newer, read once it is.
      if (r.ino === openIno) break;
      await readWhole(r);
    }
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
      await catchUp(ino, await headOf(handle, FINGERPRINT_BYTES));
    } else if (opened++ > 0) {
      // Opened first, so that it stays readable whatever happens next to its name.
      await readBetween(ino);
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
      // The start of what it holds now is taken first: truncated again before it is read
      // (a rotation during catchUp), it is known by that start, and found in its copy.
      await catchUp(ino, await headOf(handle, FINGERPRINT_BYTES));
      return -1;
    }
    let current: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      current = await stat(path);
    } catch (err) {
      if (!missing(err)) throw new InputError(`cannot read ${path}: ${reason(err)}`);
    }
    if (current !== null && current.ino !== ino) {
      // Renamed away, a new file in its place: what the old one still got; then, once the
      // file now there is open, any file rotated in between (readBetween), then that one.
      await drain(handle);
      const st = await handle.stat();
      left = { ino, head, mtimeMs: st.mtimeMs };
      finished(ino, head, bornAt(st));
      await handle.close();
      fh = null;
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
          // Not after a rotation: between logrotate's rename and the new file (made by
          // `create`, or by the service at its next error) the name is briefly, or for
          // long, free, and that is no news.
          if (!waitingSaid && opened === 0) opts.note?.(`waiting for ${path} to appear`);
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
