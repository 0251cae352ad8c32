// The pipeline: input names → bytes → entries → violations and a summary. Reports are
// made from what it returns and from the violations it hands on as they are decided.

import { Analyser, REFRESH_ROWS, type AnalyseSettings, type Counts, type RowWarming, type Summary } from './analyse/analyser.js';
import type { Violation } from './analyse/violation.js';
import type { EntrySink, Feed, Stream } from './feed.js';
import { Assembler, type RawEntrySink, type ReadInto } from './parse/assembler.js';
import { EntryReader, type Entry } from './parse/entry.js';
import { primeReading, sessionsPrimer } from './parallel/primer.js';

/** A row warming for the primer's streams: run once, it writes nothing. */
const NO_WARMING: RowWarming = { after: 1, rows: 1, write: () => {} };
/** Ids packed as soon as they are idle, looked for at every entry: the primer's later streams. */
const EAGER_RETIRE = { afterSeconds: 0, keep: 0, every: 1 };

/**
 * One input's bytes into the stream. Feeds of several inputs may take turns (files
 * followed at once); each keeps its own lines and entries.
 */
class FileFeed implements Feed {
  /** Made when first fed: an input whose entries all come from a worker never takes a buffer of the reader's space. */
  private bytesIn: Assembler | null = null;
  readonly parsed: EntrySink;
  readonly cut: RawEntrySink;

  constructor(
    private readonly analyser: Analyser,
    readonly fileIndex: number,
    private readonly reader: EntryReader,
  ) {
    this.cut = {
      entry: (buf, start, end, close, firstLineEnd, line, truncated) =>
        analyser.entry(reader.read(buf, start, end, close, firstLineEnd, fileIndex, line, truncated)),
      orphanRun: (line) => analyser.orphanRun(fileIndex, line),
    };
    this.parsed = {
      entry: (e: Entry) => analyser.entry(e),
      orphanRun: (line: number) => analyser.orphanRun(fileIndex, line),
      countLines: (lines: number) => analyser.countLines(lines),
    };
  }

  /** The buffer of the reader's space the assembler was made with, to give back when done. */
  private inSpace: Buffer | null = null;

  private get assembler(): Assembler {
    if (this.bytesIn === null) {
      this.inSpace = this.reader.readBuffer();
      this.bytesIn = new Assembler(this.cut, this.inSpace);
    }
    return this.bytesIn;
  }

  done(): void {
    // Read past here, the input would start afresh at its first line: none is.
    if (this.inSpace !== null) this.reader.giveBack(this.inSpace);
    this.inSpace = null;
    this.bytesIn = null;
  }

  push(chunk: Buffer): void {
    this.assembler.push(chunk);
  }

  cutBuffer(length: number): Buffer {
    return this.reader.scratch(length);
  }

  pushRead(max: number, read: ReadInto): number {
    return this.assembler.pushRead(max, read);
  }

  pending(): { bytes: number; lines: number; read: number } {
    return this.assembler.pending();
  }

  startMidEntry(): void {
    this.assembler.startMidEntry();
  }

  /** Lines skipped before the first entry of an input read from its middle (stdin). */
  get skippedLines(): number {
    return this.assembler.skippedLines;
  }

  flush(): void {
    this.assembler.flushOpen();
  }

  end(lineBase = 0): number {
    const lines = this.assembler.endFile();
    this.analyser.countLines(lines);
    this.assembler.startAt(lineBase);
    return lines;
  }
}

/**
 * Bytes in, violations out: the stages joined for one stream of inputs. Synchronous, so
 * a file, a pipe and a test feed it the same way.
 */
export class StreamChecker implements Stream {
  private readonly analyser: Analyser;
  /** One reader for the stream: its caches serve every input. */
  private readonly reader = new EntryReader();
  private primed = false;

  constructor(
    private readonly settings: AnalyseSettings,
    onViolation: (violation: Violation) => void,
  ) {
    this.analyser = new Analyser(settings, onViolation);
  }

  /**
   * The next input of the stream, named as given (`-` for stdin). Stdin is read from
   * wherever it was cut, so its lines before the first entry are no orphans (SPEC §1).
   */
  addFile(name: string): FileFeed {
    const feed = new FileFeed(this.analyser, this.analyser.addFile(name), this.reader);
    if (name === '-') feed.startMidEntry();
    return feed;
  }

  /** Reads the primer on a stream of its own, with these settings, its findings dropped; once. */
  prime(): void {
    if (this.primed) return;
    this.primed = true;
    const settings = { ...this.settings, warmRows: undefined };
    primeReading(new StreamChecker(settings, () => {}).addFile('primer'), settings.pairWindow);
    // Once more looking for idle ids at every entry, as a long log does now and then, and
    // merging the timeline's buckets, as a log does once it has 16,384 runs: the
    // analyser's entry, compiled without it, was thrown away there and compiled again
    // (on *short* 1 GB, 10 ms of a run and 20 of CPU). The primer's ids are a report's
    // first, which are never packed: the third stream packs ids.
    primeReading(new StreamChecker({ ...settings, retire: EAGER_RETIRE, timelineRuns: 4 }, () => {}).addFile('primer'), settings.pairWindow);
    // Then sessions packed and taken back, dozens of each (see sessionsPrimer), with a row
    // warming that writes nothing: its call from the look for idle ids is a path too.
    const sessions = new StreamChecker({ ...settings, retire: EAGER_RETIRE, warmRows: NO_WARMING }, () => {}).addFile('primer');
    sessions.push(Buffer.from(sessionsPrimer(REFRESH_ROWS)));
    sessions.end();
  }

  /** The running counts (for live metrics): nothing is decided by reading them. */
  counts(): Counts {
    return this.analyser.counts();
  }

  /** End of the stream: decides what is pending and gives the summary. */
  finish(): Summary {
    return this.analyser.finish();
  }
}
