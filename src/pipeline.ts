// The pipeline: input names → bytes → entries → findings and a summary. Reports are
// made from what it returns and from the findings it hands on as they are decided.

import { Analyser, type AnalyseSettings, type Summary } from './analyse/analyser.js';
import type { Finding } from './analyse/finding.js';
import { Assembler } from './parse/assembler.js';
import { readEntry } from './parse/entry.js';

/**
 * One input's bytes into the stream. Feeds of several inputs may take turns (files
 * followed at once); each keeps its own lines and entries.
 */
export class FileFeed {
  private readonly assembler: Assembler;

  constructor(
    private readonly analyser: Analyser,
    readonly fileIndex: number,
  ) {
    this.assembler = new Assembler({
      entry: (buf, start, end, close, firstLineEnd, line) =>
        analyser.entry(readEntry(buf, start, end, close, firstLineEnd, fileIndex, line)),
      orphanRun: (line) => analyser.orphanRun(fileIndex, line),
    });
  }

  push(chunk: Buffer): void {
    this.assembler.push(chunk);
  }

  /** The input went quiet: hand on the entry it was writing (SPEC: nothing held back forever). */
  flush(): void {
    this.assembler.flushOpen();
  }

  /**
   * The bytes so far are complete (end of input, or the file was rotated or truncated);
   * what follows, if anything, starts afresh `lineBase` lines into a file.
   */
  end(lineBase = 0): void {
    this.analyser.countLines(this.assembler.endFile());
    this.assembler.startAt(lineBase);
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

  /** The next input of the stream, named as given (`-` for stdin). */
  addFile(name: string): FileFeed {
    return new FileFeed(this.analyser, this.analyser.addFile(name));
  }

  /** End of the stream: decides what is pending and gives the summary. */
  finish(): Summary {
    return this.analyser.finish();
  }
}
