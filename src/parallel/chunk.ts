// One chunk of a large file, parsed on its own (in a worker). Chunks are cut at entry
// starts by one rule that both neighbours apply, so they tile the file exactly: chunk k
// runs from the first entry start at or after k·C (0 for the first chunk) to the first
// entry start at or after (k+1)·C. Each entry thus lies wholly in one chunk, and the
// entries a chunk yields are the ones a reading of the whole file yields there.

import { readSync } from 'node:fs';
import { pageAligned } from '../input/aligned.js';
import { Assembler, type ReadInto } from '../parse/assembler.js';
import { EntryReader } from '../parse/entry.js';
import { entryStartClose, entryStartPrefix } from '../parse/header.js';
import type { RawWriter } from './raw-entries.js';
import type { RecordBatch, RecordWriter } from './records.js';

const BLOCK = 1 << 20;
const PROBE = 1 << 16;
/** A page of memory: where a probe is read to in its buffer. */
const ALIGN = 4096;
/** The probes' buffer, kept: one a thread, grown for a long header. */
let probe: Buffer = Buffer.alloc(0);
/** Bytes of a line that decide whether its fixed header part is there. */
const ZONE_PREFIX = 24;

/**
 * The first entry start at or after `at` (a line that starts there or later), or `size`.
 * Reads only around `at`: a probe block, grown when a header runs past its end.
 */
export function entryStartFrom(fd: number, at: number, size: number): number {
  if (at <= 0) return 0;
  let length = PROBE;
  // view[0] is the byte before a possible line start: a line starts after a newline.
  let pos = at - 1;
  while (pos < size) {
    // Read to the same place in a page as the file's bytes lie in theirs (see aligned.ts):
    // chunks start on pages, so each probe, from the byte before, was the slow case.
    const place = pos & (ALIGN - 1);
    if (probe.length < place + length) probe = pageAligned(place + length);
    let view = probe.subarray(place, place + length);
    const n = readSync(fd, view, 0, length, pos);
    if (n === 0) break;
    view = view.subarray(0, n);
    const atEnd = pos + n >= size;
    let nl = view.indexOf(10);
    if (nl < 0) {
      pos += n;
      continue;
    }
    for (;;) {
      const lineStart = nl + 1;
      if (lineStart >= n) {
        if (atEnd) return size;
        pos += nl; // the next read starts at this newline
        break;
      }
      const next = view.indexOf(10, lineStart);
      const lineEnd = next < 0 ? n : next;
      if (entryStartClose(view, lineStart, lineEnd) >= 0) return pos + lineStart;
      if (next < 0) {
        if (atEnd) return size;
        if (!entryStartPrefix(view, lineStart, lineEnd) && lineEnd - lineStart >= ZONE_PREFIX) {
          pos += n - 1; // not an entry start: look on from the end of this block
        } else if (nl > 0) {
          pos += nl; // undecided: read again with the line at the start of the block
        } else {
          length *= 2; // a header longer than the block
        }
        break;
      }
      nl = next;
    }
  }
  return size;
}

/**
 * Reads the chunk whose nominal span is [from, to) of a file of `size` bytes into
 * `into`, a block at a time, straight into its buffer; `between`, when given, is called
 * after each block.
 */
export function pushChunk(fd: number, from: number, to: number, size: number, into: { pushRead(max: number, read: ReadInto): number }, between?: () => void): void {
  const start = entryStartFrom(fd, from, size);
  const end = to >= size ? size : entryStartFrom(fd, to, size);
  for (let pos = start; pos < end; ) {
    const n = into.pushRead(Math.min(BLOCK, end - pos), (buf, at, max) => readSync(fd, buf, at, max, pos));
    if (n === 0) break;
    pos += n;
    between?.();
  }
}

/**
 * Parses chunks into records, one after another: one assembler, read into directly,
 * serves all of them, so a worker's memory does not grow with the chunks it has parsed.
 */
export class ChunkParser {
  private readonly assembler: Assembler;
  /** Where entries go cut but not read, instead of into records (see cutInto). */
  private cut: RawWriter | null = null;

  constructor(private readonly writer: RecordWriter) {
    const reader = new EntryReader();
    this.assembler = new Assembler({
      entry: (buf, s, e, close, firstLineEnd, line, truncated) => {
        if (this.cut === null) writer.entry(reader.read(buf, s, e, close, firstLineEnd, 0, line, truncated));
        else this.cut.entry(buf, s, e, close, firstLineEnd, line, truncated);
      },
      orphanRun: (line) => (this.cut === null ? writer.orphanRun(line) : this.cut.orphanRun(line)),
    }, reader.readBuffer());
  }

  /** From now on, entries handed on go into `raw` cut but not read (null: into records again). */
  cutInto(raw: RawWriter | null): void {
    this.cut = raw;
  }

  /**
   * The records of the chunk whose nominal span is [from, to) of a file of `size` bytes.
   * Line numbers in the records count from the chunk's first line (1).
   */
  parse(fd: number, from: number, to: number, size: number): RecordBatch {
    pushChunk(fd, from, to, size, this.assembler);
    return this.writer.take(this.assembler.endFile());
  }

  /** The records of a chunk given as bytes (the primer's). */
  parseBytes(bytes: Buffer): RecordBatch {
    this.assembler.push(bytes);
    return this.writer.take(this.assembler.endFile());
  }

  /** The next bytes of a file read whole, in order (a gzipped one); its records are taken as they come (RecordWriter.take). */
  push(bytes: Buffer): void {
    this.assembler.push(bytes);
  }

  /** The end of a file read whole: its last entry handed on; returns its lines. */
  endFile(): number {
    return this.assembler.endFile();
  }
}
