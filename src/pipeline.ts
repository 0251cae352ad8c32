// The pipeline: input names → bytes → entries → findings and a summary. Reports are
// made from what it returns and from the findings it hands on as they are decided.

import { Analyser, type AnalyseSettings, type Summary } from './analyse/analyser.js';
import type { Finding } from './analyse/finding.js';
import { InputError } from './errors.js';
import { readingOrder } from './input/order.js';
import { closeInputs, inputBytes, openInputs } from './input/source.js';
import { Assembler } from './parse/assembler.js';
import { readEntry } from './parse/entry.js';

/**
 * Bytes in, findings out: the stages joined for one stream of files. Synchronous, so
 * a file, a pipe and a test feed it the same way.
 */
export class StreamChecker {
  private readonly analyser: Analyser;
  private readonly assembler: Assembler;
  private fileIndex = -1;

  constructor(settings: AnalyseSettings, onFinding: (finding: Finding) => void) {
    const analyser = new Analyser(settings, onFinding);
    this.analyser = analyser;
    this.assembler = new Assembler({
      entry: (buf, start, end, close, firstLineEnd, line) =>
        analyser.entry(readEntry(buf, start, end, close, firstLineEnd, this.fileIndex, line)),
      orphanRun: (line) => analyser.orphanRun(line),
    });
  }

  beginFile(name: string): void {
    this.fileIndex++;
    this.analyser.beginFile(name);
  }

  push(chunk: Buffer): void {
    this.assembler.push(chunk);
  }

  endFile(): void {
    this.analyser.endFile(this.assembler.endFile());
  }

  /** End of the stream: decides what is pending and gives the summary. */
  finish(): Summary {
    return this.analyser.finish();
  }
}

export interface Outcome {
  summary: Summary;
  /** An input that failed while being read: what came before it is in the summary. */
  inputError: InputError | null;
}

/**
 * Reads the inputs as one stream (SPEC §6). A missing or unreadable input throws an
 * InputError before anything is read.
 */
export async function analyseInputs(
  names: readonly string[],
  settings: AnalyseSettings,
  onFinding: (finding: Finding) => void,
): Promise<Outcome> {
  const inputs = openInputs(readingOrder(names));
  const checker = new StreamChecker(settings, onFinding);
  let inputError: InputError | null = null;
  try {
    for (const input of inputs) {
      checker.beginFile(input.name);
      try {
        for await (const chunk of inputBytes(input)) checker.push(chunk);
      } finally {
        // What was read of a failing input is still counted and checked.
        checker.endFile();
      }
    }
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    inputError = err;
  } finally {
    closeInputs(inputs);
  }
  return { summary: checker.finish(), inputError };
}
