// A file that cannot be cut into chunks (a gzipped one: logrotate's older members) read
// whole, in order, by one of the run's workers, while this thread analyses its records as
// they come. Read here alone, gunzip, parsing and analysis shared one core but for the
// gunzip itself; now the parsing runs on the other, as a plain file's does.

import { InputError } from '../errors.js';
import type { Feed } from '../feed.js';
import type { Parsers } from './parsers.js';
import type { Recycle, WholeJob, WholePart } from './worker.js';

export interface WholeOptions {
  signal: AbortSignal;
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
    worker.postMessage({ whole: path, name } satisfies WholeJob);
    for (let k = 0; !opts.signal.aborted; k++) {
      while (parts.length === 0 && !opts.signal.aborted) await new Promise<void>((resolve) => (waiting = resolve));
      const part = parts.shift();
      if (part === undefined) break;
      if ('died' in part) throw new InputError(`cannot read ${name}: ${part.died}`);
      if (k === 0 && part.binary) opts.onBinary?.();
      reader.read(part.batch, feed.fileIndex, 0, feed.parsed);
      worker.postMessage({ instants: part.batch.instants, ints: part.batch.ints } satisfies Recycle);
      opts.onRead?.(part.read);
      if (part.done) {
        feed.parsed.countLines(part.batch.lines);
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
