// `--format gitlab`: GitLab Code Quality JSON (a CodeClimate subset): one issue per violation.

import { fileOf, messageOf, type Violation } from '../analyse/violation.js';
import { fingerprint } from './fingerprint.js';
import { jsonText } from './json-text.js';
import { repoPath, type RepoPaths } from './paths.js';
import type { Reporter } from './reporter.js';

/** GitLab's scale: info, minor, major, critical, blocker. */
const SEVERITY = { error: 'major', warning: 'minor' } as const;

/** Paths relative to the repository: the Code Quality widget finds files by nothing else. */
export function renderGitlab(violations: readonly Violation[], paths: RepoPaths): string {
  const issues = violations.map((f) => ({
    description: `${f.rule}: ${messageOf(f)}`,
    check_name: f.rule,
    fingerprint: fingerprint(f),
    severity: SEVERITY[f.severity],
    location: { path: repoPath(fileOf(f), paths).path, lines: { begin: f.line } },
  }));
  return jsonText(issues, 2) + '\n';
}

export const gitlabReporter: Reporter = {
  description: 'GitLab Code Quality JSON',
  end: (ctx) => renderGitlab(ctx.violations, ctx.paths),
};
