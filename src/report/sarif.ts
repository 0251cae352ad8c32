// `--format sarif`: SARIF 2.1.0, for code-scanning dashboards. The rules are reporting
// descriptors; each violation is a result at the input's path and line.

import type { Finding } from '../analyse/finding.js';
import { RULES } from '../analyse/rules.js';
import { RULE_HELP } from '../analyse/rule-help.js';
import { VERSION } from '../version.js';
import { fingerprint } from './fingerprint.js';
import { jsonText } from './json-text.js';

const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** An input path as a URI reference: each segment percent-encoded, slashes kept. */
export function artifactUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function renderSarif(findings: readonly Finding[]): string {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  const doc = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'webmail-log',
            version: VERSION,
            rules: RULES.map((r) => ({
              id: r.id,
              name: RULE_HELP[r.id].name,
              shortDescription: { text: r.summary },
              fullDescription: { text: RULE_HELP[r.id].description },
              help: { text: RULE_HELP[r.id].help },
              defaultConfiguration: { level: r.severity },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: ruleIndex.get(f.rule),
          level: f.severity,
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: artifactUri(f.file) },
                region: { startLine: f.line },
              },
            },
          ],
          partialFingerprints: { 'webmailLogFinding/v1': fingerprint(f) },
          ...(f.requestId !== null ? { properties: { requestId: f.requestId } } : {}),
        })),
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
  return jsonText(doc, 2) + '\n';
}
