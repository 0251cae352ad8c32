// `--format junit`: JUnit XML. One testsuite per input file; in it one testcase per
// violation (named by rule and file:line: Jenkins, CircleCI and Azure show only the
// first failure of a testcase), a passing testcase for each rule that found nothing,
// and a skipped one for each rule turned off.

import type { Summary } from '../analyse/analyser.js';
import type { Violation } from '../analyse/violation.js';
import { RULES, type Severities } from '../analyse/rules.js';
import type { Reporter } from './reporter.js';
import { xmlEscape as x } from './xml.js';

export function renderJunit(s: Summary, violations: readonly Violation[], severities: Severities): string {
  const suites: string[] = [];
  let tests = 0;
  s.files.forEach((file, fileIndex) => {
    const mine = violations.filter((f) => f.fileIndex === fileIndex);
    const cases: string[] = [];
    let skipped = 0;
    for (const rule of RULES) {
      const head = `    <testcase classname="webmail-log.${x(rule.id)}"`;
      const failures = mine.filter((f) => f.rule === rule.id);
      if (severities[rule.id] === 'off') {
        skipped++;
        cases.push(`${head} name="${x(rule.id)}">`, '      <skipped message="rule turned off"/>', '    </testcase>');
      } else if (failures.length === 0) {
        cases.push(`${head} name="${x(rule.id)}"/>`);
      }
      for (const f of failures) {
        const where = `${f.file}:${f.line}`;
        cases.push(
          `${head} name="${x(`${rule.id} ${where}`)}" file="${x(f.file)}" line="${f.line}">`,
          `      <failure message="${x(f.message)}" type="${f.severity}">${x(`${where} ${f.message}`)}</failure>`,
          '    </testcase>',
        );
      }
    }
    const count = cases.filter((c) => c.startsWith('    <testcase')).length;
    tests += count;
    suites.push(`  <testsuite name="${x(file)}" tests="${count}" failures="${mine.length}" errors="0" skipped="${skipped}">`, ...cases, '  </testsuite>');
  });
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="webmail-log" tests="${tests}" failures="${violations.length}" errors="0">`, ...suites, '</testsuites>');
  return out.join('\n') + '\n';
}

export const junitReporter: Reporter = {
  description: 'JUnit XML: a testcase per violation',
  end: (ctx) => renderJunit(ctx.summary, ctx.violations, ctx.severities),
};
