// A parsing worker: takes chunks of a file, answers each with its records.

import { closeSync, openSync } from 'node:fs';
import { InputError } from '../errors.js';
import { tuneHeap } from '../heap.js';
import { parentPort } from 'node:worker_threads';
import { ChunkParser } from './chunk.js';
import { primeParsing } from './primer.js';
import { RawWriter, type RawBatch } from './raw-entries.js';
import { RecordWriter, type RecordBatch } from './records.js';

export interface ChunkJob {
  chunk: number;
  path: string;
  from: number;
  to: number;
  size: number;
}

/** Where a worker counts the chunks it has parsed, and says it is ready, for the thread that gives them out. */
export interface Progress {
  progress: Int32Array;
  ready: Int32Array;
  index: number;
}

/** Arrays of a batch that has been read, sent back to be filled again. */
export interface Recycle {
  instants: Float64Array;
  ints: Int32Array;
}

/** A whole file to read in order, as it cannot be cut into chunks (a gzipped one): it comes back in parts. */
export interface WholeJob {
  /** Where to open the file. */
  whole: string;
  /** The name it was given by, for messages. */
  name: string;
  /** Who reads the entries, fixed for tests: this worker (records), the analysing thread (cut), or each in turn; else as the reading goes. */
  plan?: 'records' | 'cut' | 'alternate';
}

/** A part of a whole file: its entries read into records, or cut but not read. The last says how many lines the file held, and why it stopped if it failed. */
export interface WholePart {
  part: number;
  records: RecordBatch | null;
  cut: RawBatch | null;
  /** Bytes read from the file for this part, before gunzip (what a progress bar measures). */
  read: number;
  /** The first bytes looked binary (they hold NUL bytes). */
  binary: boolean;
  done: boolean;
  /** The lines the file held (on the last part). */
  lines: number;
  /** The file could not be read to its end: the message of its InputError. */
  error: string | null;
}

/** Arrays of a part of entries cut, read, sent back to be filled again. */
export interface CutRecycle {
  bytes: Uint8Array;
  fields: Int32Array;
}

/** Records in a part of a whole file: about 5 MB of a log. */
const PART_RECORDS = 16_384;
/** Bytes of entries in a part cut but not read: the analysing thread reads them, so fewer. */
const PART_BYTES = 1 << 20;
/** Parts sent and not yet given back before this worker waits: what is in flight stays a few MB. */
const PARTS_AHEAD = 8;
/**
 * Parts not yet given back at or below which this worker cuts the next part rather than
 * read it, for the analysing thread to read; past it, that thread is behind, and this
 * worker reads the part into records, which cost that thread least. On *short* gzipped
 * (1 GB unpacked), three interleaved runs each: records only 4.18-4.56 s, cutting at 2
 * parts or fewer 3.99-4.47, at 4 3.28-4.19 (the analysing thread then read 75-81 % of the
 * entries), every part cut 3.23-4.24 with a peak RSS of 208 MiB against 162-166. On
 * *busy*, whose entries cost little to read, records only did as well (2.99-3.41 s
 * against 3.04-3.55). Cutting costs some 20 MiB more: this worker, allocating little,
 * is collected seldom, and the gunzip's spent pieces wait for it.
 */
const CUT_AT = 4;
/**
 * Gunzipped pieces of 256 KiB here, not the 1 MiB a lone thread reads in. A piece
 * outlived two of this worker's small scavenges, and promoted, its memory (outside V8's
 * heap) waited for a full collection, which this worker, allocating little, seldom makes:
 * *short*'s rotation set (eight members gzipped) peaked at 210-216 MiB by default; in
 * 256 KiB pieces at 167-171, as fast (1.87-1.92 s against 1.82-1.87, three interleaved
 * runs each). A lone thread is 7 % slower in such pieces, and its memory did not change.
 */
const WORKER_GUNZIP_PIECE = 1 << 18;

// First: starting a worker thread resets V8's flags for the whole process, this thread's
// and the one that started it (the young generation then grew to 32 MiB in both).
tuneHeap();

// Before saying it is ready: a worker would otherwise parse its first chunks while V8
// compiles this again and again (primer.ts).
primeParsing();

const writer = new RecordWriter();
const parser = new ChunkParser(writer);
let open: { path: string; fd: number } | null = null;
let progress: Progress | null = null;

/** Parts of the whole file under way sent, and given back; who waits for one to come back. */
let partsSent = 0;
let partsBack = 0;
let partBack: (() => void) | null = null;
let cutWriter: RawWriter | null = null;

async function readWhole(job: WholeJob): Promise<void> {
  partsSent = partsBack = 0;
  const raw = (cutWriter ??= new RawWriter());
  let read = 0;
  let binary = false;
  let first = true;
  let cutting = false;
  const send = (done: boolean, lines: number, error: string | null) => {
    const part: WholePart = { part: partsSent++, records: cutting ? null : writer.take(0), cut: cutting ? raw.take() : null, read, binary, done, lines, error };
    read = 0;
    parentPort!.postMessage(part);
  };
  const cutNext = (piece: number): boolean => {
    switch (job.plan) {
      case 'records':
        return false;
      case 'cut':
        return true;
      case 'alternate':
        return piece % 2 === 1;
      default:
        return partsSent - partsBack <= CUT_AT;
    }
  };
  try {
    // Loaded here, not at the start: most workers never read a whole file.
    const { inputBytes, looksBinary } = await import('../input/source.js');
    // Closed by inputBytes once read.
    const fd = openSync(job.whole, 'r');
    let pieces = 0;
    for await (const piece of inputBytes({ name: job.name, fd, stream: false }, undefined, (n) => (read += n), WORKER_GUNZIP_PIECE)) {
      if (first) binary = looksBinary(piece);
      first = false;
      const cut = cutNext(pieces++);
      if (cut !== cutting) {
        // A part holds one kind: what is held of the other goes first.
        if ((cutting ? raw.entries : writer.size) > 0) send(false, 0, null);
        cutting = cut;
        parser.cutInto(cutting ? raw : null);
      }
      parser.push(piece);
      if (cutting ? raw.size >= PART_BYTES : writer.size >= PART_RECORDS) {
        send(false, 0, null);
        while (partsSent - partsBack > PARTS_AHEAD) await new Promise<void>((resolve) => (partBack = resolve));
      }
    }
    send(true, parser.endFile(), null);
  } catch (err) {
    // What was read of a failing file is still counted and checked, as by one thread.
    send(true, parser.endFile(), err instanceof InputError ? err.message : `cannot read ${job.name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  } finally {
    parser.cutInto(null);
  }
}

function partBackHere(): void {
  partsBack++;
  partBack?.();
  partBack = null;
}

parentPort!.on('message', (job: ChunkJob | WholeJob | Recycle | CutRecycle | Progress | 'close') => {
  if (job === 'close') {
    if (open !== null) closeSync(open.fd);
    parentPort!.close();
    return;
  }
  if ('progress' in job) {
    progress = job;
    // Heard only once this module and its imports are loaded: ready for chunks.
    Atomics.store(job.ready, job.index, 1);
    return;
  }
  if ('instants' in job) {
    writer.recycle(job.instants, job.ints);
    partBackHere();
    return;
  }
  if ('fields' in job) {
    cutWriter?.recycle(job.bytes, job.fields);
    partBackHere();
    return;
  }
  if ('whole' in job) {
    void readWhole(job);
    return;
  }
  try {
    if (open === null || open.path !== job.path) {
      if (open !== null) closeSync(open.fd);
      open = { path: job.path, fd: openSync(job.path, 'r') };
    }
    const batch = parser.parse(open.fd, job.from, job.to, job.size);
    if (progress !== null) Atomics.add(progress.progress, progress.index, 1);
    parentPort!.postMessage({ chunk: job.chunk, batch });
  } catch (err) {
    parentPort!.postMessage({ chunk: job.chunk, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
  }
});
