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

/** The file a violation is in, without the `host:` a fleet report puts before it. */
export function fileOf(v: Violation): string {
  return v.host === undefined ? v.file : v.file.slice(v.host.length + 1);
}

/** The message, with the host in front in a fleet report. */
export function messageOf(v: Violation): string {
  return v.host === undefined ? v.message : `[${v.host}] ${v.message}`;
}
