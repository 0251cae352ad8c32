// Bytes to entries. Splits a file's bytes into lines (LF or CRLF, the last line may lack
// its newline) and folds every line that does not start an entry into the entry above.
// Lines and entries are byte ranges of one growing buffer, so a line is never copied
// into a string of its own; an entry is handed on once the next one starts (or the file
// ends), and only for the duration of that call.
//
// Memory is capped: an entry, or a line still being written, longer than ENTRY_CAP keeps
// its first and last ENTRY_CAP / 2 bytes. Every line is still counted, the head (header,
// request id, DB code and message) and the tail (the request) are still read, and the
// entry is marked as truncated.

import { entryStartClose } from './header.js';

/** Where raw entries go: an entry's byte range, before anything in it is read. */
export interface RawEntrySink {
  /**
   * An entry: bytes [start, end) of buf, without its final line break. `close` is its
   * header's `]`, `firstLineEnd` the end of its first line. buf is reused after the call.
   */
  entry(buf: Buffer, start: number, end: number, close: number, firstLineEnd: number, line: number, truncated: boolean): void;
  /** A run of non-blank lines before the first entry of a file, at its first line. */
  orphanRun(line: number): void;
}

/** Reads at most `max` bytes into `buf` from `at` on; returns how many it read (0: none left). */
export type ReadInto = (buf: Buffer, at: number, max: number) => number;

const LF = 0x0a;
const CR = 0x0d;
/**
 * Buffer#indexOf, called on a view with .call: `view.indexOf` was compiled by V8 as a
 * generic property load, a call of its LoadIC a line.
 */
const indexOf = Buffer.prototype.indexOf;

/** Most bytes kept of one entry (1 MiB): its first and last half. */
export const ENTRY_CAP = 1 << 20;
const HALF = ENTRY_CAP / 2;

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && (c < 0x09 || c > 0x0d)) return false;
  }
  return true;
}

export class Assembler {
  private buf: Buffer;
  private len = 0;
  /** Start of the next line not yet looked at. */
  private scan = 0;
  /** Lines completed in this file. */
  private lines = 0;
  /** The entry not yet handed on: its start (-1: none yet in this file), `]`, first line end and line. */
  private open = -1;
  private openClose = 0;
  private openFirstEnd = 0;
  private openLine = 0;
  /** Bytes were left out of the open entry, or out of the line still being written (truncated). */
  private openTruncated = false;
  private lineTruncated = false;
  /** Bytes left out of the open entry's complete lines, and of the line still being written. */
  private removedOpen = 0;
  private removedLine = 0;
  /** Inside a run of non-blank lines before the file's first entry. */
  private inOrphanRun = false;
  /** An entry has started in this file, or reading began mid-file: no more orphan lines. */
  private seenEntry = false;
  /** Lines of the file before the first byte fed (reading began at an offset). */
  private lineBase = 0;
  /** Reading began mid-entry: lines before the first entry counted here (-1: not counting). */
  private skipped = -1;
  private counting = false;

  /** `buf`: where to read to begin with (a larger one is made when an entry needs it). */
  constructor(
    private readonly sink: RawEntrySink,
    buf: Buffer | null = null,
  ) {
    this.buf = buf ?? Buffer.allocUnsafe(1 << 20);
  }

  /**
   * Reading begins `lineBase` lines into a file (following it from its end): violations keep
   * the file's own line numbers, and lines before the first entry seen belong to an entry
   * that started before, so they are no orphans.
   */
  startAt(lineBase: number): void {
    this.lineBase = lineBase;
    this.seenEntry = lineBase > 0;
  }

  /**
   * Reading begins wherever the input was cut (stdin: `tail` cuts mid-entry, SPEC §1):
   * lines before the first entry are counted, and counted as skipped, not as orphans.
   */
  startMidEntry(): void {
    this.seenEntry = true;
    this.skipped = 0;
    this.counting = true;
  }

  /** See Feed.pending: bytes not handed on, the lines before them, and all lines read. */
  pending(): { bytes: number; lines: number; read: number } {
    const kept = this.open >= 0 ? this.open : this.scan;
    const read = this.lineBase + this.lines + (this.scan < this.len ? 1 : 0);
    const removed = (this.open >= 0 ? this.removedOpen : 0) + this.removedLine;
    return { bytes: this.len - kept + removed, lines: this.open >= 0 ? this.openLine - 1 : this.lineBase + this.lines, read };
  }

  /** Lines skipped before the first entry since startMidEntry. */
  get skippedLines(): number {
    return Math.max(0, this.skipped);
  }

  /**
   * Hands on the open entry as it stands (its complete lines), for a live stream gone
   * quiet: nothing is held back forever. Lines that still come for it are counted only.
   */
  flushOpen(): void {
    if (this.open < 0 || this.scan <= this.open) return;
    const view = this.buf.subarray(0, this.len);
    this.sink.entry(view, this.open, this.scan - 1, this.openClose, this.openFirstEnd, this.openLine, this.openTruncated);
    this.open = -1;
    this.openTruncated = false;
    this.removedOpen = 0;
  }

  /** Feeds the next bytes of the current file. */
  push(chunk: Buffer): void {
    this.makeRoom(chunk.length);
    chunk.copy(this.buf, this.len);
    this.len += chunk.length;
    this.scanLines();
  }

  /**
   * Feeds the next bytes of the current file, read by `read` straight into this buffer:
   * it is given where to put at most `max` bytes and returns how many it put. A file
   * read so is not copied a second time (pushing it copied every byte: 3-4 % of a
   * parse's CPU). Returns what `read` returned.
   */
  pushRead(max: number, read: ReadInto): number {
    this.makeRoom(max);
    const n = read(this.buf, this.len, max);
    this.len += n;
    this.scanLines();
    return n;
  }

  /** Hands on what the bytes up to the last newline complete. */
  private scanLines(): void {
    const view = this.buf.subarray(0, this.len);
    let pos = this.scan;
    for (;;) {
      const nl = indexOf.call(view, LF, pos);
      if (nl < 0) break;
      this.lines++;
      this.line(view, pos, nl > pos && view[nl - 1] === CR ? nl - 1 : nl);
      pos = nl + 1;
    }
    this.scan = pos;
    this.cap();
  }

  /** Cuts the middle out of an open entry or a half-read line that has grown past the cap. */
  private cap(): void {
    if (this.open >= 0 && this.scan - this.open > ENTRY_CAP) {
      this.removedOpen += this.scan - HALF - (this.open + HALF);
      this.cutOut(this.open + HALF, this.scan - HALF);
      this.openTruncated = true;
    }
    if (this.len - this.scan > ENTRY_CAP) {
      this.removedLine += this.len - HALF - (this.scan + HALF);
      this.cutOut(this.scan + HALF, this.len - HALF);
      this.lineTruncated = true;
    }
  }

  /** Removes bytes [from, to) of the buffer; no line start lies inside them. */
  private cutOut(from: number, to: number): void {
    const n = to - from;
    this.buf.copyWithin(from, to, this.len);
    this.len -= n;
    if (this.scan >= to) this.scan -= n;
    // A first line (or a zone token) reaching into the cut ends where the cut begins: such
    // a header is never valid, and the entry is malformed either way.
    if (this.openFirstEnd >= to) this.openFirstEnd -= n;
    else if (this.openFirstEnd > from) this.openFirstEnd = from;
    if (this.openClose >= to) this.openClose -= n;
    else if (this.openClose >= from) this.openClose = from - 1;
  }

  /** Ends the current file: hands on its last entry. Returns the count of lines read. */
  endFile(): number {
    const view = this.buf.subarray(0, this.len);
    if (this.scan < this.len) {
      // A last line without a newline still counts.
      this.lines++;
      this.line(view, this.scan, view[this.len - 1] === CR ? this.len - 1 : this.len);
      this.scan = this.len;
    }
    if (this.open >= 0) {
      const end = this.len > this.open && view[this.len - 1] === LF ? this.len - 1 : this.len;
      this.sink.entry(view, this.open, end, this.openClose, this.openFirstEnd, this.openLine, this.openTruncated);
    }
    const lines = this.lines;
    this.len = 0;
    this.scan = 0;
    this.lines = 0;
    this.open = -1;
    this.openTruncated = false;
    this.lineTruncated = false;
    this.removedOpen = 0;
    this.removedLine = 0;
    this.inOrphanRun = false;
    this.seenEntry = false;
    this.lineBase = 0;
    return lines;
  }

  private line(view: Buffer, start: number, end: number): void {
    const close = entryStartClose(view, start, end);
    const lineTruncated = this.lineTruncated;
    this.lineTruncated = false;
    const removed = this.removedLine;
    this.removedLine = 0;
    if (close >= 0) {
      this.removedOpen = removed;
      if (this.open >= 0) this.sink.entry(view, this.open, start - 1, this.openClose, this.openFirstEnd, this.openLine, this.openTruncated);
      this.open = start;
      this.openClose = close;
      this.openFirstEnd = end;
      this.openLine = this.lineBase + this.lines;
      this.openTruncated = lineTruncated;
      this.seenEntry = true;
      this.counting = false;
    } else if (this.open >= 0) {
      this.openTruncated ||= lineTruncated;
      this.removedOpen += removed;
    } else if (this.counting) {
      this.skipped++;
    } else if (!this.seenEntry) {
      if (isBlank(view, start, end)) {
        this.inOrphanRun = false;
      } else if (!this.inOrphanRun) {
        this.inOrphanRun = true;
        this.sink.orphanRun(this.lineBase + this.lines);
      }
    }
  }

  /** Drops bytes already handed on and grows the buffer so that `extra` more bytes fit. */
  private makeRoom(extra: number): void {
    const keep = this.open >= 0 ? this.open : this.scan;
    if (keep > 0) {
      this.buf.copyWithin(0, keep, this.len);
      this.len -= keep;
      this.scan -= keep;
      if (this.open >= 0) {
        this.open -= keep;
        this.openClose -= keep;
        this.openFirstEnd -= keep;
      }
    }
    if (this.len + extra > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + extra));
      this.buf.copy(grown, 0, 0, this.len);
      this.buf = grown;
    }
  }
}
