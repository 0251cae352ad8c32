// A stable identity for a violation, for CI systems that track results across runs
// (SARIF partialFingerprints, GitLab's fingerprint): the same violation in the same file
// at the same line gets the same value, and no two violations of one run share one.

import { createHash } from 'node:crypto';
import type { Violation } from '../analyse/violation.js';

export function fingerprint(f: Violation): string {
  return createHash('sha256')
    .update([f.rule, String(f.fileIndex), f.file, String(f.line), f.requestId ?? ''].join('\0'))
    .digest('hex');
}
