// The exit status for what a report found (SPEC §4): analyse and merge decide it alike.

import type { Io } from '../io.js';
import { EXIT_OK, EXIT_VIOLATIONS } from '../process.js';

/** The exit status for what was found (SPEC §4); says on stderr why warnings failed the run. */
export function exitStatus(violations: { error: number; warning: number }, o: { strict: boolean; maxWarnings: number | null }, io: Io): number {
  const { error, warning } = violations;
  if (error > 0) return EXIT_VIOLATIONS;
  const warnings = `${warning} warning${warning === 1 ? '' : 's'}`;
  if (o.strict && warning > 0) {
    io.err(`webmail-log: ${warnings}, and --strict fails on any\n`);
    return EXIT_VIOLATIONS;
  }
  if (o.maxWarnings !== null && warning > o.maxWarnings) {
    io.err(`webmail-log: ${warnings}, more than --max-warnings ${o.maxWarnings}\n`);
    return EXIT_VIOLATIONS;
  }
  return EXIT_OK;
}

