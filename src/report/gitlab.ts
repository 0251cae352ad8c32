// `--format gitlab`: GitLab Code Quality JSON (a CodeClimate subset): one issue per violation.

import type { Finding } from '../analyse/finding.js';
import { fingerprint } from './fingerprint.js';
import { jsonText } from './json-text.js';

/** GitLab's scale: info, minor, major, critical, blocker. */
const SEVERITY = { error: 'major', warning: 'minor' } as const;

export function renderGitlab(findings: readonly Finding[]): string {
  const issues = findings.map((f) => ({
    description: `${f.rule}: ${f.message}`,
    check_name: f.rule,
    fingerprint: fingerprint(f),
    severity: SEVERITY[f.severity],
    location: { path: f.file, lines: { begin: f.line } },
  }));
  return jsonText(issues, 2) + '\n';
}
