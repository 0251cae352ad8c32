// The pipeline: input names → bytes → entries → findings and a summary. Reports are
// made from what it returns and from the findings it hands on as they are decided.

import { Analyser, type AnalyseSettings, type Summary } from './analyse/analyser.js';
import type { Finding } from './analyse/finding.js';
import { Assembler } from './parse/assembler.js';
import { readEntry, type Entry } from './parse/entry.js';

/** Entries parsed elsewhere (by workers) into the stream, for one input. */
export interface ParsedFeed {
  readonly fileIndex: number;
  entry(e: Entry): void;
  orphanRun(line: number): void;
  countLines(lines: number): void;
}

/**
 * One input's bytes into the stream. Feeds of several inputs may take turns (files
 * followed at once); each keeps its own lines and entries.
 */
export class FileFeed implements ParsedFeed {
  private readonly assembler: Assembler;

  constructor(
    private readonly analyser: Analyser,
    readonly fileIndex: number,
  ) {
    this.assembler = new Assembler({
      entry: (buf, start, end, close, firstLineEnd, line, cut) =>
        analyser.entry(readEntry(buf, start, end, close, firstLineEnd, fileIndex, line, cut)),
      orphanRun: (line) => analyser.orphanRun(fileIndex, line),
    });
  }

  push(chunk: Buffer): void {
    this.assembler.push(chunk);
  }

  startMidEntry(): void {
    this.assembler.startMidEntry();
  }

  entry(e: Entry): void {
    this.analyser.entry(e);
  }

  orphanRun(line: number): void {
    this.analyser.orphanRun(this.fileIndex, line);
  }

  countLines(lines: number): void {
    this.analyser.countLines(lines);
  }

  /** Lines skipped before the first entry of an input read from its middle (stdin). */
  get skippedLines(): number {
    return this.assembler.skippedLines;
  }

  /** The input went quiet: hand on the entry it was writing (SPEC: nothing held back forever). */
  flush(): void {
    this.assembler.flushOpen();
  }

  /**
   * The bytes so far are complete (end of input, a chunk's end, or the file was rotated
   * or truncated); what follows, if anything, starts afresh `lineBase` lines into a file.
   * Returns the lines read since the last end.
   */
  end(lineBase = 0): number {
    const lines = this.assembler.endFile();
    this.analyser.countLines(lines);
    this.assembler.startAt(lineBase);
    return lines;
  }
}

/**
 * Bytes in, findings out: the stages joined for one stream of inputs. Synchronous, so
 * a file, a pipe and a test feed it the same way.
 */
export class StreamChecker {
  private readonly analyser: Analyser;

  constructor(settings: AnalyseSettings, onFinding: (finding: Finding) => void) {
    this.analyser = new Analyser(settings, onFinding);
  }

  /**
   * The next input of the stream, named as given (`-` for stdin). Stdin is read from
   * wherever it was cut, so its lines before the first entry are no orphans (SPEC §1).
   */
  addFile(name: string): FileFeed {
    const feed = new FileFeed(this.analyser, this.analyser.addFile(name));
    if (name === '-') feed.startMidEntry();
    return feed;
  }

  /** End of the stream: decides what is pending and gives the summary. */
  finish(): Summary {
    return this.analyser.finish();
  }
}
