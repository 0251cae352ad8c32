// A stable identity for a finding, for CI systems that track results across runs
// (SARIF partialFingerprints, GitLab's fingerprint): the same finding in the same file
// at the same line gets the same value, and no two findings of one run share one.

import { createHash } from 'node:crypto';
import type { Finding } from '../analyse/finding.js';

export function fingerprint(f: Finding): string {
  return createHash('sha256')
    .update([f.rule, String(f.fileIndex), f.file, String(f.line), f.requestId ?? ''].join('\0'))
    .digest('hex');
}
