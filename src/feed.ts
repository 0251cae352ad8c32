// The seam between where bytes come from (input/, parallel/) and what reads them
// (parse/, analyse/): one input's content goes into a Feed, whichever way it is read.
// The plain reader and the follower push bytes; the parallel reader pushes its own
// share as bytes and hands on the entries its workers parsed, in order, through
// `parsed`. Both land in the same stream.

import type { RawEntrySink, ReadInto } from './parse/assembler.js';
import type { Entry } from './parse/entry.js';

/** Entries read elsewhere (by a worker), into the stream, for one input. */
export interface EntrySink {
  entry(e: Entry): void;
  /** A run of non-blank lines before the input's first entry, at its first line. */
  orphanRun(line: number): void;
  countLines(lines: number): void;
}

/** One input's content, into the stream. */
export interface Feed {
  /** The input's place in the stream. */
  readonly fileIndex: number;
  /** The next bytes. */
  push(chunk: Buffer): void;
  /** The next bytes, read by `read` straight into the feed's own buffer (see Assembler.pushRead); returns their count. */
  pushRead(max: number, read: ReadInto): number;
  /** The input went quiet: hand on the entry it was writing (nothing is held back forever). */
  flush(): void;
  /**
   * The bytes so far are complete (the end, a chunk's end, a rotation or truncation);
   * what follows, if anything, starts afresh `lineBase` lines into a file. Returns the
   * lines read since the last end.
   */
  end(lineBase?: number): number;
  /**
   * What is read but not yet handed on (the entry still open, a line still being
   * written): its bytes; the lines before it; and the lines read in all, a line still
   * being written included. A checkpoint stands before the pending bytes.
   */
  pending(): { bytes: number; lines: number; read: number };
  /** Lines skipped before the first entry of an input read from its middle (stdin). */
  readonly skippedLines: number;
  /** Where entries parsed by workers go. */
  readonly parsed: EntrySink;
  /** Where entries a worker cut but did not read go, to be read as this input's own (parallel/whole.ts). */
  readonly cut: RawEntrySink;
  /** Where such entries are put first, `length` bytes of them: in the reader's space when they fit, so their bodies are compared there. */
  cutBuffer(length: number): Buffer;
  /**
   * The input is read to its end (after end()): its buffer in the reader's space goes
   * to the next input's. A run reads one input after another, so every one of them is
   * read in the space, however many there are (past four, they were not: 10-15 % slower).
   */
  done(): void;
}

/** A stream of inputs, read as one (SPEC §6). */
export interface Stream {
  /** The next input, named as given (`-` for stdin). */
  addFile(name: string): Feed;
  /** Runs every path of the reading once, on a throwaway stream, before the first input read by several threads (parallel/primer.ts). */
  prime(): void;
}
