// The first lines of the entries that violations point at, read again from the inputs
// after the run (files and .gz; stdin and pipes cannot be read twice): what the HTML
// report shows under each violation. One pass per file, keeping only the lines asked for.

import { statSync } from 'node:fs';
import { entryStartClose } from '../parse/header.js';
import { inputBytes, openInputs, closeInputs } from './source.js';

/** Lines kept of an entry, and characters of a line. */
const LINES = 4;
const CHARS = 400;

export interface Place {
  fileIndex: number;
  line: number;
}

/** `places` by file: for each, up to four lines from its line, stopping at the next entry. */
export async function readExcerpts(files: readonly string[], places: readonly Place[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const byFile = new Map<number, Set<number>>();
  for (const p of places) {
    let lines = byFile.get(p.fileIndex);
    if (lines === undefined) byFile.set(p.fileIndex, (lines = new Set()));
    lines.add(p.line);
  }
  for (const [fileIndex, wanted] of byFile) {
    const name = files[fileIndex];
    try {
      if (name === '-' || !statSync(name).isFile()) continue;
    } catch {
      continue;
    }
    const inputs = openInputs([name], false);
    try {
      let line = 0;
      let partial = '';
      /** The excerpt being gathered, and its place. */
      let open: string[] | null = null;
      const take = (text: string) => {
        line++;
        const b = Buffer.from(text, 'latin1');
        const starts = entryStartClose(b, 0, b.length) >= 0;
        if (open !== null && (starts || open.length >= LINES)) open = null;
        if (wanted.has(line)) {
          open = [];
          out.set(`${fileIndex}:${line}`, open);
        }
        if (open !== null) open.push(Buffer.from(text, 'latin1').toString('utf8').replace(/\r$/, '').slice(0, CHARS));
      };
      for await (const chunk of inputBytes(inputs[0])) {
        const text = partial + chunk.toString('latin1');
        const parts = text.split('\n');
        partial = parts.pop() as string;
        for (const p of parts) take(p);
      }
      if (partial !== '') take(partial);
    } catch {
      // An input that cannot be read again gives no excerpt: the report still stands.
    } finally {
      closeInputs(inputs);
    }
  }
  return out;
}
