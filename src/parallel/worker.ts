// A parsing worker: takes chunks of a file, answers each with its records.

// First: starting a worker thread resets V8's flags for the whole process, this thread's
// and the one that started it (the young generation then grew to 32 MiB in both).
import '../heap.js';
import { closeSync, openSync } from 'node:fs';
import { InputError } from '../errors.js';
import { parentPort } from 'node:worker_threads';
import { ChunkParser } from './chunk.js';
import { primeParsing } from './primer.js';
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

/** A whole file to read in order, as it cannot be cut into chunks (a gzipped one): its records come in parts. */
export interface WholeJob {
  /** Where to open the file. */
  whole: string;
  /** The name it was given by, for messages. */
  name: string;
}

/** A part of a whole file's records; the last says how many lines the file held, and why it stopped if it failed. */
export interface WholePart {
  part: number;
  batch: RecordBatch;
  /** Bytes read from the file for this part, before gunzip (what a progress bar measures). */
  read: number;
  /** The first bytes looked binary (they hold NUL bytes). */
  binary: boolean;
  done: boolean;
  /** The file could not be read to its end: the message of its InputError. */
  error: string | null;
}

/** Records in a part of a whole file: about 5 MB of a log. */
const PART_RECORDS = 16_384;
/** Parts sent and not yet given back before this worker waits: the records in flight stay a few MB. */
const PARTS_AHEAD = 8;

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

async function readWhole(job: WholeJob): Promise<void> {
  partsSent = partsBack = 0;
  let read = 0;
  let binary = false;
  let first = true;
  const send = (done: boolean, lines: number, error: string | null) => {
    const part: WholePart = { part: partsSent++, batch: writer.take(lines), read, binary, done, error };
    read = 0;
    parentPort!.postMessage(part);
  };
  try {
    // Loaded here, not at the start: most workers never read a whole file.
    const { inputBytes, looksBinary } = await import('../input/source.js');
    // Closed by inputBytes once read.
    const fd = openSync(job.whole, 'r');
    for await (const piece of inputBytes({ name: job.name, fd, stream: false }, undefined, (n) => (read += n))) {
      if (first) binary = looksBinary(piece);
      first = false;
      parser.push(piece);
      if (writer.size >= PART_RECORDS) {
        send(false, 0, null);
        while (partsSent - partsBack > PARTS_AHEAD) await new Promise<void>((resolve) => (partBack = resolve));
      }
    }
    send(true, parser.endFile(), null);
  } catch (err) {
    // What was read of a failing file is still counted and checked, as by one thread.
    send(true, parser.endFile(), err instanceof InputError ? err.message : `cannot read ${job.name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

parentPort!.on('message', (job: ChunkJob | WholeJob | Recycle | Progress | 'close') => {
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
    partsBack++;
    partBack?.();
    partBack = null;
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
