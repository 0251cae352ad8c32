// The pipeline: input names → bytes → entries → findings and a summary. Reports are
// made from what it returns and from the findings it hands on as they are decided.

import { Analyser, type AnalyseSettings, type Summary } from './analyse/analyser.js';
import type { Finding } from './analyse/finding.js';
import { InputError } from './errors.js';
import { readingOrder } from './input/order.js';
import { closeInputs, inputBytes, openInputs } from './input/source.js';
import { Assembler } from './parse/assembler.js';
import { readEntry } from './parse/entry.js';

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
  const analyser = new Analyser(settings, onFinding);
  let fileIndex = 0;
  const assembler = new Assembler({
    entry: (buf, start, end, close, firstLineEnd, line) =>
      analyser.entry(readEntry(buf, start, end, close, firstLineEnd, fileIndex, line)),
    orphanRun: (line) => analyser.orphanRun(line),
  });
  let inputError: InputError | null = null;
  try {
    for (const input of inputs) {
      analyser.beginFile(input.name);
      try {
        for await (const chunk of inputBytes(input)) assembler.push(chunk);
      } finally {
        // What was read of a failing input is still counted and checked.
        analyser.endFile(assembler.endFile());
      }
      fileIndex++;
    }
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    inputError = err;
  } finally {
    closeInputs(inputs);
  }
  return { summary: analyser.finish(), inputError };
}
