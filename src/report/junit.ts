// `--format junit`: JUnit XML. One testsuite per input file, one testcase per rule, a
// failure per violation; a rule turned off is a skipped testcase.

import type { Summary } from '../analyse/analyser.js';
import type { Finding } from '../analyse/finding.js';
import { RULES, type Severities } from '../analyse/rules.js';
import { xmlEscape as x } from './xml.js';

export function renderJunit(s: Summary, findings: readonly Finding[], severities: Severities): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const cases = s.files.length * RULES.length;
  out.push(`<testsuites name="webmail-log" tests="${cases}" failures="${findings.length}" errors="0">`);
  s.files.forEach((file, fileIndex) => {
    const mine = findings.filter((f) => f.fileIndex === fileIndex);
    const skipped = RULES.filter((r) => severities[r.id] === 'off').length;
    out.push(`  <testsuite name="${x(file)}" tests="${RULES.length}" failures="${mine.length}" errors="0" skipped="${skipped}">`);
    for (const rule of RULES) {
      const failures = mine.filter((f) => f.rule === rule.id);
      const head = `    <testcase classname="webmail-log" name="${x(rule.id)}"`;
      if (severities[rule.id] === 'off') {
        out.push(`${head}>`, '      <skipped message="rule turned off"/>', '    </testcase>');
      } else if (failures.length === 0) {
        out.push(`${head}/>`);
      } else {
        out.push(`${head}>`);
        for (const f of failures) {
          const where = `${f.file}:${f.line}`;
          out.push(`      <failure message="${x(`${where} ${f.message}`)}" type="${f.severity}">${x(`${where} ${f.message}`)}</failure>`);
        }
        out.push('    </testcase>');
      }
    }
    out.push('  </testsuite>');
  });
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
