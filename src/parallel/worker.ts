// A parsing worker: takes chunks of a file, answers each with its records.

// First: starting a worker thread resets V8's flags for the whole process, this thread's
// and the one that started it (the young generation then grew to 32 MiB in both).
import '../heap.js';
import { closeSync, openSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { ChunkParser } from './chunk.js';
import { primeParsing } from './primer.js';
import { RecordWriter } from './records.js';

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

// Before saying it is ready: a worker would otherwise parse its first chunks while V8
// compiles this again and again (primer.ts).
primeParsing();

const writer = new RecordWriter();
const parser = new ChunkParser(writer);
let open: { path: string; fd: number } | null = null;
let progress: Progress | null = null;

parentPort!.on('message', (job: ChunkJob | Recycle | Progress | 'close') => {
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
