// A violation: one rule broken once, reported at the first line of the entry that breaks it.

import { ruleOrder, type Level, type RuleId } from './rules.js';

export interface Violation {
  rule: RuleId;
  severity: Level;
  /** Place of its file in the stream, and the file's name as given (`-` for stdin). */
  fileIndex: number;
  file: string;
  line: number;
  requestId: string | null;
  message: string;
  /** In a fleet report (merge): the host it was found on. */
  host?: string;
}

/** Stream order (file, then line), then the order of the rules table (SPEC §5). */
export function compareViolations(a: Violation, b: Violation): number {
  return a.fileIndex - b.fileIndex || a.line - b.line || ruleOrder(a.rule) - ruleOrder(b.rule);
}
