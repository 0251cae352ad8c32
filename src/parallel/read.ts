// A large regular file read by several threads. The file is cut into chunks at entry
// starts (see chunk.ts). Workers parse chunks into records; this thread parses the
// chunks they do not take and hands everything to the one analyser in chunk order, so
// pairing, the watermark, `chronological` and every count come out exactly as from a
// single reading. Only a few chunks are in flight at once, so memory does not grow with
// the file.

import { availableParallelism } from 'node:os';
import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import { pushChunk } from './chunk.js';
import { Parsers, type Answer } from './parsers.js';
import type { RecordBatch, RecordReader } from './records.js';
import type { ChunkJob, Progress, Recycle } from './worker.js';

const MIN_CHUNK = 1 << 16;
const MAX_CHUNK = 8 << 20;
/** Who parses a chunk besides the workers (0, 1, …): this thread, straight into the feed when it reaches the chunk, or ahead of that into records. */
export const HERE = -1;
export const AHEAD = -2;
const UNASSIGNED = -3;

/**
 * Threads when --jobs is not given: the cores, at most 4. One thread analyses every entry
 * in order (about 600 MB/s of the bench's logs) while a worker parses 240-375 MB/s, so
 * three workers keep it busy and more would only wait; each one holds 12-20 MiB (on
 * *busy*, 300 MB: a peak RSS of 69 MiB with one thread, 107 with 2, 131 with 3, 147
 * with 4, 352 with 16), and a 64-core server would start 63 of them.
 */
export const MAX_DEFAULT_JOBS = 4;

export function defaultJobs(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(MAX_DEFAULT_JOBS, cores));
}

/**
 * Whether a file of `size` bytes is read by `jobs` threads, in a run whose regular files
 * hold `total` bytes: the run must hold `from` or more (on less, starting the workers
 * costs more than they save), and the file more than one chunk. The workers are started
 * once a run and kept for each such file, so a rotation set of files below `from` each is
 * read by them too (ten files of 100 MB: 2.5-3.2 s against 3.6-4.9 by one thread, and
 * 3.9-4.6 with workers started again for each file).
 */
export function readsInParallel(size: number, total: number, jobs: number, from: number): boolean {
  return jobs >= 2 && total >= from && size > chunkSize(size, jobs);
}

/** Chunk size for a file: several chunks a thread, none huge. */
export function chunkSize(size: number, jobs: number): number {
  return Math.max(MIN_CHUNK, Math.min(MAX_CHUNK, Math.ceil(size / (jobs * 4))));
}

/**
 * Where each chunk starts, and the file's size last. Chunks are chunkSize() until the
 * rest of the file would make fewer than jobs × 4 of them; from there each is that share
 * of what is left, down to an eighth of the first. At the end this thread waits for the
 * chunks a worker still holds (BACKLOG of them): held at 8 MiB, that wait was 33-63 ms of
 * *short*'s 1 GB, with the other core idle; now 8-12.
 */
export function chunkStarts(size: number, jobs: number): number[] {
  const first = chunkSize(size, jobs);
  const least = Math.max(MIN_CHUNK, Math.ceil(first / 8));
  const starts = [0];
  let at = 0;
  do {
    at = Math.min(size, at + Math.max(least, Math.min(first, Math.ceil((size - at) / (jobs * 4)))));
    starts.push(at);
  } while (at < size);
  return starts;
}

/** Chunks a worker may hold unparsed: enough that it never waits while this thread parses one (with 2, a worker waited 60-90 ms a GB; with 4, 15-30). */
export const BACKLOG = 4;

/** The worker holding fewest unparsed chunks, or -1 when each holds BACKLOG. */
export function freeWorker(held: readonly number[]): number {
  let best = 0;
  for (let w = 1; w < held.length; w++) if (held[w] < held[best]) best = w;
  return held[best] >= BACKLOG ? -1 : best;
}

/** Unparsed chunks each worker holds; one not yet ready counts as full (BACKLOG), so it is given none. */
export function held(given: readonly number[], parsed: Int32Array, ready: Int32Array): number[] {
  return given.map((g, i) => (Atomics.load(ready, i) === 1 ? g - Atomics.load(parsed, i) : BACKLOG));
}

/** Workers beside this thread for `jobs` threads in all. */
export function workerCount(jobs: number): number {
  return Math.max(1, jobs - 1);
}

/** Reads `path` (a plain regular file of `size` bytes, open as `fd`) with `jobs` threads. */
export async function readInParallel(
  path: string,
  fd: number,
  size: number,
  jobs: number,
  feed: Feed,
  signal: AbortSignal,
  onRead?: (bytes: number) => void,
  /** Who parses each chunk, fixed (tests give every kind of owner its turn); else decided as reading goes. */
  plan?: (chunk: number) => number,
  /** The path workers open the file by, when `path` is not one (stdin: /proc/self/fd/0). */
  openPath: string = path,
  /** Workers already started (the run's, for every large file); else started here and closed at the end. */
  given?: Parsers,
): Promise<void> {
  const starts = chunkStarts(size, jobs);
  const chunks = starts.length - 1;
  const parsers = given?.usable ? given : new Parsers(workerCount(jobs));
  const { workers, readers } = parsers;
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
  parsers.listen<Answer>({
    answer: (a) => answerFor(a.chunk).resolve(a),
    died: (message) => {
      for (const [k, pending] of waiting) pending.resolve({ chunk: k, error: message });
    },
  });
  // Who parses a chunk is decided late. This thread also analyses everything, so a fixed
  // share would leave one side idle. Each worker is kept BACKLOG chunks ahead; a chunk no
  // worker has taken when this thread reaches it is parsed here, straight into the feed;
  // and while this thread would wait for a worker, it parses the next chunk nobody has
  // taken into records of its own, read in turn. Workers faster than the analysis so get
  // every chunk, and slower ones are helped exactly as much as they lag. Progress is read
  // from shared memory: a thread busy parsing does not see messages until it waits.
  const handed = workers.map(() => 0);
  const parsed = new Int32Array(new SharedArrayBuffer(4 * workers.length));
  // A worker takes 100-150 ms to start (it loads and compiles its modules): it is given
  // chunks once it says it is ready, and this thread parses them meanwhile, rather than
  // wait for the first chunk it gave away.
  const ready = new Int32Array(new SharedArrayBuffer(4 * workers.length));
  workers.forEach((w, i) => w.postMessage({ progress: parsed, ready, index: i } satisfies Progress));
  const owners = new Int16Array(chunks).fill(UNASSIGNED);
  /** For a worker's chunk, its place in that worker's sequence (1-based). */
  const places = new Int32Array(chunks);
  const workerDone = (k: number) => Atomics.load(parsed, owners[k]) >= places[k];
  // Parsed chunks wait in memory until read: none more than `ahead` chunks past the one at
  // hand (about 1 MB of records each). With 6 a worker, this thread found every chunk in
  // reach taken and waited for the worker 100-400 ms a GB (busy, short); with 10, 20-40.
  const ahead = 10 * workers.length;
  let next = 0;
  // A worker is given its chunks in order, so it numbers its strings in the order this
  // thread reads them back; the same holds for this thread's own records.
  const topUp = (k: number) => {
    for (; next < Math.min(chunks, k + ahead); next++) {
      const owner = plan ? plan(next) : freeWorker(held(handed, parsed, ready));
      if (plan && owner < 0) {
        owners[next] = owner;
        continue;
      }
      if (owner < 0) return;
      owners[next] = owner;
      places[next] = ++handed[owner];
      const job: ChunkJob = { chunk: next, path: openPath, from: starts[next], to: starts[next + 1], size };
      answerFor(next);
      workers[owner].postMessage(job);
    }
  };
  const { writer: ownWriter, parser: ownParser, reader: ownReader } = parsers.own;
  const parsedAhead = new Map<number, RecordBatch>();
  let lineBase = 0;
  const readBatch = (batch: RecordBatch, reader: RecordReader) => {
    reader.read(batch, feed.fileIndex, lineBase, feed.parsed);
    feed.parsed.countLines(batch.lines);
    lineBase += batch.lines;
  };
  let finished = false;
  try {
    for (let k = 0; k < chunks && !signal.aborted; k++) {
      // Chunk 0 is always one of these (unless a test fixes a plan): its lines before the
      // first entry are the feed's to judge (orphans in a file, skipped on stdin, SPEC §1).
      if (owners[k] === UNASSIGNED && plan === undefined) {
        owners[k] = HERE;
        next = k + 1;
      }
      topUp(k);
      const owner = owners[k];
      if (owner === HERE) {
        feed.end(lineBase);
        // A worker that says it is ready meanwhile is given chunks at once, not once this
        // one is parsed: the first chunk, parsed here cold while the workers load, took
        // 200 ms or so, and a worker ready in the middle of it waited 70-80 ms idle.
        pushChunk(fd, starts[k], starts[k + 1], size, feed, () => topUp(k));
        lineBase += feed.end();
      } else if (owner === AHEAD) {
        const batch = parsedAhead.get(k) ?? ownParser.parse(fd, starts[k], starts[k + 1], size);
        parsedAhead.delete(k);
        readBatch(batch, ownReader);
        ownWriter.recycle(batch.instants, batch.ints);
      } else {
        while (!workerDone(k) && next < Math.min(chunks, k + ahead) && !signal.aborted) {
          const j = next++;
          owners[j] = AHEAD;
          parsedAhead.set(j, ownParser.parse(fd, starts[j], starts[j + 1], size));
          topUp(k);
        }
        const answer = await answerFor(k).promise;
        waiting.delete(k);
        if ('error' in answer) throw new InputError(`cannot read ${path}: ${answer.error}`);
        const { batch } = answer;
        readBatch(batch, readers[owner]);
        const back: Recycle = { instants: batch.instants, ints: batch.ints };
        workers[owner].postMessage(back);
      }
      onRead?.(starts[k + 1] - starts[k]);
    }
    finished = !signal.aborted;
  } finally {
    parsers.listen(null);
    // Stopped midway, a worker may have numbered strings in chunks never read back.
    if (!finished || parsers !== given) await parsers.close();
  }
}
