// `--format sarif`: SARIF 2.1.0, for code-scanning dashboards. The rules are reporting
// descriptors; each violation is a result at the input's path and line. Paths inside the
// repository are relative to %SRCROOT% (GitHub code scanning links nothing else); a file
// outside it is an absolute file:// URI, with no base.

import { fileOf, type Violation } from '../analyse/violation.js';
import { RULES } from '../analyse/rules.js';
import { HOMEPAGE, VERSION } from '../version.js';
import { fingerprint } from './fingerprint.js';
import { jsonText } from './json-text.js';
import { fileUri, repoPath, rootUri, type RepoPaths } from './paths.js';
import type { Reporter } from './reporter.js';

const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const SRCROOT = '%SRCROOT%';

/** A relative path as a URI reference: each segment percent-encoded, slashes kept. */
export function artifactUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function artifactLocation(file: string, paths: RepoPaths) {
  const where = repoPath(file, paths);
  return where.inRepo ? { uri: artifactUri(where.path), uriBaseId: SRCROOT } : { uri: fileUri(where.path) };
}

/**
 * One run per host, each with its own automationDetails.id (`webmail-log/<host>/`): GitHub
 * code scanning refuses two runs of one category in one upload.
 */
export function renderSarif(violations: readonly Violation[], paths: RepoPaths, host: string, hosts: readonly string[] | null = null): string {
  const runs = (hosts ?? [host]).map((h) => sarifRun(hosts === null ? violations : violations.filter((v) => v.host === h), paths, h));
  return jsonText({ $schema: SCHEMA, version: '2.1.0', runs }, 2) + '\n';
}

function sarifRun(violations: readonly Violation[], paths: RepoPaths, host: string) {
  const ruleIndex = new Map(RULES.map((r, i) => [r.id, i]));
  return {
        tool: {
          driver: {
            name: 'webmail-log',
            version: VERSION,
            informationUri: HOMEPAGE,
            rules: RULES.map((r) => ({
              id: r.id,
              name: r.name,
              shortDescription: { text: r.summary },
              fullDescription: { text: r.description },
              help: { text: r.help },
              defaultConfiguration: { level: r.severity },
            })),
          },
        },
        automationDetails: { id: `webmail-log/${host}/` },
        originalUriBaseIds: { [SRCROOT]: { uri: rootUri(paths) } },
        results: violations.map((f) => ({
          ruleId: f.rule,
          ruleIndex: ruleIndex.get(f.rule),
          level: f.severity,
          message: { text: f.message },
          locations: [{ physicalLocation: { artifactLocation: artifactLocation(fileOf(f), paths), region: { startLine: f.line } } }],
          partialFingerprints: { 'webmailLogFinding/v1': fingerprint(f) },
          ...(f.requestId !== null ? { properties: { requestId: f.requestId } } : {}),
        })),
        columnKind: 'unicodeCodePoints',
  };
}

export const sarifReporter: Reporter = {
  description: 'SARIF 2.1.0, for code scanning',
  end: (ctx) => renderSarif(ctx.violations, ctx.paths, ctx.host, ctx.fleet?.map((h) => h.host) ?? null),
};
