// The parsing workers of a run, started once and given every large file in turn.
//
// A worker takes 150-200 ms to be ready on a busy two-core machine (it loads its modules,
// reads the primer and compiles the parser), so the workers are started before the run's
// first input is read, while this thread reads its own primer, and kept for every large
// file of the run (a rotation set read together): a worker started again per file paid
// all of that again, on a core the analysis needed.

import { Worker } from 'node:worker_threads';
import { untuneHeap } from '../heap.js';
import { ChunkParser } from './chunk.js';
import { RecordReader, RecordWriter, type RecordBatch } from './records.js';

/** A chunk's records, or why it could not be read. */
export type Answer = { chunk: number; batch: RecordBatch } | { chunk: number; error: string };

/** What one reading does with the workers' answers (chunks' or a whole file's parts), and with a worker that died. */
export interface AnswerSink<T> {
  answer(a: T): void;
  died(message: string): void;
}

/** This thread's own parser, for the chunks it parses ahead into records, with the reader of those records. */
export interface OwnParser {
  writer: RecordWriter;
  parser: ChunkParser;
  reader: RecordReader;
}

export class Parsers {
  readonly workers: Worker[];
  /**
   * One reader for each worker, as long-lived as it: a worker numbers each string once,
   * in the order its chunks are read back, so its reader keeps the table across files.
   */
  readonly readers: RecordReader[];
  private ownParser: OwnParser | null = null;
  private sink: AnswerSink<unknown> | null = null;
  private closing: Promise<void> | null = null;
  /** A worker died (its error was handed to the reading under way, if any). */
  private broken = false;

  constructor(count: number) {
    // V8's own flags while the workers start, so that Node's code cache of its modules is
    // used; each worker sets ours again once it has started (heap.ts). Of several, one
    // still starting then compiles the rest of its modules without the cache, as all did.
    untuneHeap();
    this.workers = Array.from({ length: count }, () => new Worker(new URL('./worker.js', import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: 8 } }));
    this.readers = this.workers.map(() => new RecordReader());
    for (const w of this.workers) {
      w.on('message', (a: unknown) => this.sink?.answer(a));
      w.on('error', (err) => {
        this.broken = true;
        this.sink?.died(err.message);
      });
    }
  }

  /**
   * This thread's parser, kept with the workers for the same reason (and its reader's
   * WebAssembly memory made once a run, not once a file).
   */
  get own(): OwnParser {
    if (this.ownParser === null) {
      const writer = new RecordWriter();
      this.ownParser = { writer, parser: new ChunkParser(writer), reader: new RecordReader() };
    }
    return this.ownParser;
  }

  /** False once closed (a reading that stopped midway closes them: their tables may be ahead of their readers) or once one died. */
  get usable(): boolean {
    return this.closing === null && !this.broken;
  }

  /** The reading that hears the answers from now on (null: none). */
  listen<T>(sink: AnswerSink<T> | null): void {
    // A reading knows what its workers answer: chunks' records, or a whole file's parts.
    this.sink = sink as AnswerSink<unknown> | null;
  }

  close(): Promise<void> {
    this.sink = null;
    this.closing ??= Promise.all(this.workers.map((w) => w.terminate())).then(() => undefined);
    return this.closing;
  }
}
