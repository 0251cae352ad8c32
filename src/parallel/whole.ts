// A file that cannot be cut into chunks ahead (a gzipped one: logrotate's older members)
// read whole, in order, by one of the run's workers, while this thread analyses what it
// hands on as it comes: entries cut but not read, which this thread reads itself, or,
// when this thread falls behind, records (raw-entries.ts). Read here alone, gunzip,
// cutting, parsing and analysis shared one core but for the gunzip itself.

import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import type { Parsers } from './parsers.js';
import { readRaw } from './raw-entries.js';
import type { CutRecycle, Recycle, WholeJob, WholePart } from './worker.js';

export interface WholeOptions {
  signal: AbortSignal;
  /** Who reads the entries, fixed (tests give each its turn); else decided as the reading goes. */
  plan?: WholeJob['plan'];
  onRead?: (bytes: number) => void;
  /** Hears that the file's first bytes looked binary. */
  onBinary?: () => void;
}

/** Reads the file `name`, opened by the worker as `path`, into `feed` by the first of `parsers`. */
export async function readWhole(name: string, path: string, feed: Feed, parsers: Parsers, opts: WholeOptions): Promise<void> {
  const worker = parsers.workers[0];
  const reader = parsers.readers[0];
  // Parts come in order from the one worker: a queue, and who waits for its next part.
  const parts: (WholePart | { died: string })[] = [];
  let waiting: (() => void) | null = null;
  const arrived = (p: WholePart | { died: string }) => {
    parts.push(p);
    waiting?.();
    waiting = null;
  };
  parsers.listen<WholePart>({ answer: arrived, died: (message) => arrived({ died: message }) });
  const stop = () => waiting?.();
  opts.signal.addEventListener('abort', stop, { once: true });
  let finished = false;
  try {
    worker.postMessage({ whole: path, name, plan: opts.plan } satisfies WholeJob);
    for (let k = 0; !opts.signal.aborted; k++) {
      while (parts.length === 0 && !opts.signal.aborted) await new Promise<void>((resolve) => (waiting = resolve));
      const part = parts.shift();
      if (part === undefined) break;
      if ('died' in part) throw new InputError(`cannot read ${name}: ${part.died}`);
      if (k === 0 && part.binary) opts.onBinary?.();
      if (part.records !== null) {
        reader.read(part.records, feed.fileIndex, 0, feed.parsed);
        worker.postMessage({ instants: part.records.instants, ints: part.records.ints } satisfies Recycle);
      } else if (part.cut !== null) {
        readRaw(part.cut, feed);
        worker.postMessage({ bytes: part.cut.bytes, fields: part.cut.fields } satisfies CutRecycle);
      }
      opts.onRead?.(part.read);
      if (part.done) {
        feed.parsed.countLines(part.lines);
        finished = true;
        if (part.error !== null) throw new InputError(part.error);
        break;
      }
    }
  } finally {
    opts.signal.removeEventListener('abort', stop);
    parsers.listen(null);
    // Stopped midway, the worker may still be reading, its tables ahead of its reader.
    if (!finished) await parsers.close();
  }
}
