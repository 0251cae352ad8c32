// Where bytes come from: a file or stdin, gzip recognised by its content (the magic
// bytes 1f 8b), never by its name.

import { closeSync, createReadStream, fstatSync, openSync, read, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { InputError } from '../errors.js';
import { pageAligned } from './aligned.js';

/** Read size: large reads keep the per-chunk work small against the per-byte work. */
const CHUNK = 1 << 20;

export interface Input {
  /** The name as given: a path, or `-` for stdin. */
  name: string;
  /** An open file descriptor, or null for stdin and for pipes (opened when read). */
  fd: number | null;
  /**
   * Read as a stream, never opened ahead: a named pipe (`<(tail -f errors.log)`), or stdin
   * when it is a pipe or a terminal. Stdin from a file is read like a file, in large blocks.
   */
  stream: boolean;
}

/** A path that is a pipe, a socket or a device: read as a stream, never opened ahead. */
export function isStreamPath(name: string): boolean {
  if (name === '-') return false;
  try {
    const st = statSync(name);
    return st.isFIFO() || st.isSocket() || st.isCharacterDevice();
  } catch {
    return false;
  }
}

/** Why a file could not be opened or read, in a few words. */
export function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return code ?? (err as Error).message;
  }
}

/**
 * Opens every input before any is read, so that a missing or unreadable one stops the
 * run at once with exit status 2 instead of after a partial report.
 */
export function openInputs(names: readonly string[], stdinIsStream: boolean): Input[] {
  const inputs: Input[] = [];
  try {
    for (const name of names) {
      if (name === '-') {
        inputs.push({ name, fd: null, stream: stdinIsStream });
        continue;
      }
      // Opening a named pipe waits for its writer: open it when it is read, not here.
      if (isStreamPath(name)) {
        inputs.push({ name, fd: null, stream: true });
        continue;
      }
      let fd: number;
      try {
        fd = openSync(name, 'r');
      } catch (err) {
        throw new InputError(`cannot read ${name}: ${reason(err)}`);
      }
      inputs.push({ name, fd, stream: false });
      if (fstatSync(fd).isDirectory()) throw new InputError(`cannot read ${name}: is a directory`);
    }
  } catch (err) {
    closeInputs(inputs);
    throw err;
  }
  return inputs;
}

export function closeInputs(inputs: readonly Input[]): void {
  for (const input of inputs) {
    if (input.fd !== null) {
      try {
        closeSync(input.fd);
      } catch {
        // already closed by its stream
      }
      input.fd = null;
    }
  }
}

/** Text logs hold no NUL bytes; a block that does is most likely from a binary file. */
export function looksBinary(block: Buffer): boolean {
  return block.subarray(0, 4096).includes(0);
}

/** Where an input's raw bytes come from, and how to stop a read that may wait forever. */
interface RawSource {
  chunks: AsyncIterator<Buffer>;
  stop(): void;
}

function rawSource(input: Input): RawSource {
  if (input.name === '-' && input.stream) return streamSource(process.stdin);
  if (input.stream) return streamSource(createReadStream(input.name, { highWaterMark: CHUNK }));
  if (input.name === '-') return { chunks: fileBlocks(0, false), stop: () => {} };
  const fd = input.fd as number;
  input.fd = null;
  return { chunks: fileBlocks(fd, true), stop: () => {} };
}

function streamSource(stream: Readable): RawSource {
  return { chunks: stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>, stop: () => stream.destroy() };
}

const readInto = (fd: number, block: Buffer) =>
  new Promise<number>((resolve, reject) => read(fd, block, 0, block.length, null, (err, n) => (err ? reject(err) : resolve(n))));

/**
 * A file's blocks, read into two buffers in turn: the next block is read while the
 * consumer works on this one, and a buffer is read into again only once its block is done
 * with. A read stream allocated 1 MiB a block and left them to the collector (30 MB of
 * them were alive at once on a 1 GB read); reading one block at a time left this thread
 * idle 6 % of a run. A file's read never waits long: no stop is needed. The buffers start
 * on a page, as the blocks of the file do (see aligned.ts).
 */
async function* fileBlocks(fd: number, close: boolean): AsyncGenerator<Buffer> {
  const blocks = [pageAligned(CHUNK), pageAligned(CHUNK)];
  let reading = readInto(fd, blocks[0]);
  try {
    for (let i = 0; ; i ^= 1) {
      const n = await reading;
      if (n === 0) return;
      reading = readInto(fd, blocks[i ^ 1]);
      yield blocks[i].subarray(0, n);
    }
  } finally {
    // A read under way when the consumer stops is let finish before its file is closed.
    await reading.catch(() => 0);
    if (close) closeSync(fd);
  }
}

/**
 * True when stdin is a pipe, a socket or a regular file. Not a terminal, /dev/null or a
 * closed descriptor: a CI job whose log fetch failed must not read "nothing" as clean.
 */
export function stdinIsReadable(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFile() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/** True when stdin is a pipe, a socket or a terminal: a stream that may never end. */
export function stdinIsLive(): boolean {
  try {
    return !fstatSync(0).isFile();
  } catch {
    return false;
  }
}

/** Whether `bytes` start with gzip's magic bytes: how a gzipped input is told, whatever its name (SPEC §6). */
export function hasGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Bytes of a piece gunzip hands on, as this thread reads: see decoded(). */
const GUNZIP_PIECE = 1 << 20;

/**
 * The bytes of an input, gunzipped when they start with gzip's magic bytes. Ends early,
 * without error, when `signal` aborts (SIGINT on a live stream). A chunk holds good until
 * the next is asked for: copy what is kept. `gunzipPiece`: bytes of a gunzipped piece.
 */
export async function* inputBytes(input: Input, signal?: AbortSignal, onRead?: (bytes: number) => void, gunzipPiece = GUNZIP_PIECE): AsyncGenerator<Buffer> {
  const source = rawSource(input);
  signal?.addEventListener('abort', source.stop, { once: true });
  try {
    yield* decoded(input.name, source.chunks, signal, onRead, gunzipPiece);
  } finally {
    signal?.removeEventListener('abort', source.stop);
    // A file left before its end (an abort) is closed.
    await source.chunks.return?.();
  }
}

/** `onRead` hears of the bytes as read, before gunzip: what a progress bar measures. */
async function* decoded(name: string, raw: AsyncIterator<Buffer>, signal: AbortSignal | undefined, onRead: ((bytes: number) => void) | undefined, gunzipPiece: number): AsyncGenerator<Buffer> {
  const ended: IteratorResult<Buffer> = { done: true, value: undefined };
  const next = async (): Promise<IteratorResult<Buffer>> => {
    if (signal?.aborted) return ended;
    try {
      const r = await raw.next();
      if (!r.done) onRead?.(r.value.length);
      return r;
    } catch (err) {
      if (signal?.aborted) return ended;
      throw new InputError(`cannot read ${name}: ${reason(err)}`);
    }
  };
  // Peek at least two bytes to tell gzip from text.
  const head: Buffer[] = [];
  let headLength = 0;
  let done = false;
  while (headLength < 2) {
    const r = await next();
    if (r.done) {
      done = true;
      break;
    }
    // A copy: a later read may reuse the buffer.
    const chunk = Buffer.from(r.value);
    head.push(chunk);
    headLength += chunk.length;
  }
  const first = head.length === 1 ? head[0] : Buffer.concat(head);
  if (!hasGzipMagic(first)) {
    if (headLength > 0) yield first;
    if (done) return;
    for (let r = await next(); !r.done; r = await next()) yield r.value;
    return;
  }
  // Copies: gunzip queues what it is given, and a file's reads reuse their buffers.
  const rest = async function* (): AsyncGenerator<Buffer> {
    yield first;
    if (done) return;
    for (let r = await next(); !r.done; r = await next()) yield Buffer.from(r.value);
  };
  // Pieces of 1 MiB, as a file is read: gunzip then runs on libuv's thread while this one
  // parses the piece before. In pieces of 64 KiB the stream's own work per piece, and the
  // gunzip waiting to be asked for each, took *short* 1 GB gzipped 5.5-8.4 s against
  // 4.3-4.9 s (three interleaved runs each; peak RSS 100 MiB against 107-120).
  const gunzip = createGunzip({ chunkSize: gunzipPiece });
  const source = Readable.from(rest());
  source.on('error', (err) => gunzip.destroy(err));
  source.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (err) {
    if (signal?.aborted) return;
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot read ${name}: corrupt gzip data (${(err as Error).message})`);
  }
}
