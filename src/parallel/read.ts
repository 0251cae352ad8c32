// A large regular file read by several threads. The file is cut into chunks at entry
// starts (see chunk.ts). Workers parse their chunks into records; this thread parses a
// share of the chunks itself and hands everything to the one analyser in chunk order,
// so pairing, the watermark, `chronological` and every count come out exactly as from a
// single reading. Only a few chunks are in flight at once, so memory does not grow with
// the file.

import { readSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { InputError } from '../errors.js';
import { newEntry } from '../parse/entry.js';
import type { Feed } from '../feed.js';
import { entryStartFrom } from './chunk.js';
import type { ChunkJob, Recycle } from './worker.js';
import { RecordReader, type RecordBatch } from './records.js';

const MIN_CHUNK = 1 << 16;
const MAX_CHUNK = 8 << 20;
const BLOCK = 1 << 20;

/** Chunk size for a file: several chunks a thread, none huge. */
export function chunkSize(size: number, jobs: number): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.ceil(size / (jobs * 4))));
}

/**
 * Who parses chunk k: -1 for this thread, else a worker. This thread also analyses
 * everything, so in each round it takes one chunk and every worker two.
 */
export function chunkOwner(k: number, workers: number): number {
  const p = k % (1 + 2 * workers);
  return p === 0 ? -1 : (p - 1) >> 1;
}

type Answer = { chunk: number; batch: RecordBatch } | { chunk: number; error: string };

/** Reads `path` (a plain regular file of `size` bytes, open as `fd`) with `jobs` threads. */
export async function readInParallel(
  path: string,
  fd: number,
  size: number,
  jobs: number,
  feed: Feed,
  signal: AbortSignal,
  onRead?: (bytes: number) => void,
): Promise<void> {
  const chunk = chunkSize(size, jobs);
  const chunks = Math.max(1, Math.ceil(size / chunk));
  const workerCount = Math.max(1, jobs - 1);
  const workers = Array.from(
    { length: workerCount },
    () => new Worker(new URL('./worker.js', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 8 } }),
  );
  const readers = workers.map(() => new RecordReader(newEntry()));
  const waiting = new Map<number, { resolve: (a: Answer) => void; promise: Promise<Answer> }>();
  const answerFor = (k: number) => {
    let w = waiting.get(k);
    if (w === undefined) {
      let resolve!: (a: Answer) => void;
      const promise = new Promise<Answer>((r) => (resolve = r));
      w = { resolve, promise };
      waiting.set(k, w);
    }
    return w;
  };
  for (const w of workers) {
    w.on('message', (a: Answer) => answerFor(a.chunk).resolve(a));
    w.on('error', (err) => {
      for (const [k, pending] of waiting) pending.resolve({ chunk: k, error: err.message });
    });
  }
  // A worker is given its chunks in order, so it numbers its strings in the order this
  // thread reads them back.
  const ahead = 6 * workerCount;
  let dispatched = 0;
  const dispatch = (upTo: number) => {
    for (; dispatched < Math.min(upTo, chunks); dispatched++) {
      const owner = chunkOwner(dispatched, workerCount);
      if (owner < 0) continue;
      const job: ChunkJob = { chunk: dispatched, path, from: dispatched * chunk, to: (dispatched + 1) * chunk, size };
      answerFor(dispatched);
      workers[owner].postMessage(job);
    }
  };
  const block = Buffer.allocUnsafe(BLOCK);
  let lineBase = 0;
  try {
    for (let k = 0; k < chunks && !signal.aborted; k++) {
      dispatch(k + ahead);
      const owner = chunkOwner(k, workerCount);
      if (owner < 0) {
        const start = entryStartFrom(fd, k * chunk, size);
        const end = (k + 1) * chunk >= size ? size : entryStartFrom(fd, (k + 1) * chunk, size);
        feed.end(lineBase);
        for (let pos = start; pos < end; ) {
          const n = readSync(fd, block, 0, Math.min(BLOCK, end - pos), pos);
          if (n === 0) break;
          feed.push(block.subarray(0, n));
          pos += n;
        }
        lineBase += feed.end();
      } else {
        const answer = await answerFor(k).promise;
        waiting.delete(k);
        if ('error' in answer) throw new InputError(`cannot read ${path}: ${answer.error}`);
        const { batch } = answer;
        readers[owner].read(batch, feed.fileIndex, lineBase, feed.parsed);
        feed.parsed.countLines(batch.lines);
        lineBase += batch.lines;
        const back: Recycle = { instants: batch.instants, ints: batch.ints };
        workers[owner].postMessage(back, [batch.instants.buffer as ArrayBuffer, batch.ints.buffer as ArrayBuffer]);
      }
      onRead?.(Math.min(size, (k + 1) * chunk) - Math.min(size, k * chunk));
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
