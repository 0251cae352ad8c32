// Each CI format on its own: shape, escaping, and validity for any log text.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { severities } from '../../src/analyse/rules.js';
import { escapeData, escapeProperty, markdownCell, renderStepSummary } from '../../src/report/github.js';
import { artifactUri } from '../../src/report/sarif.js';
import { xmlEscape } from '../../src/report/xml.js';
import { check, log, lookup, pair, report } from '../helpers.js';
import { INJECTION_LOG, NASTY_NAME } from './injection.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv-draft-04');
const addFormats = require('ajv-formats');
const schema = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/sarif-schema-2.1.0.json', import.meta.url)), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validateSarif = ajv.compile(schema);

function sarifErrors(text: string): unknown {
  return validateSarif(JSON.parse(text)) ? null : validateSarif.errors;
}

const EVERY = check([
  ['errors.log.1', log('stray', lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'), lookup('10:01:00', 'calendars'))],
  [NASTY_NAME, INJECTION_LOG],
]);

describe('github', () => {
  it('escapes like the Actions toolkit', () => {
    expect(escapeData('100% a\r\nb')).toBe('100%25 a%0D%0Ab');
    expect(escapeProperty('a:b,c%')).toBe('a%3Ab%2Cc%25');
  });

  it('writes one command per violation, severity, file, line and rule as title', () => {
    const c = check(log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'), lookup('10:01:07', 'calendars')));
    expect(report('github', c)).toBe(
      '::error file=errors.log,line=2,title=pair-order::remote-sync lookup (line 1) came before the local lookup\n' +
        '::warning file=errors.log,line=3,title=pair-incomplete::local lookup has no remote-sync partner\n',
    );
  });

  it('lets nothing from the log start a line or break one', () => {
    const out = report('github', EVERY);
    const lines = out.split('\n').slice(0, -1);
    expect(lines).toHaveLength(EVERY.violations.length);
    for (const line of lines) {
      expect(line).toMatch(/^::(error|warning) file=[^:,]*,line=\d+,title=[a-z-]+::/);
      expect(line).not.toMatch(/[\x00-\x1f\x7f\r]/);
    }
    expect(out).toContain('%250A');
  });

  it('writes a Markdown step summary with no HTML or table breaks from the log', () => {
    const md = renderStepSummary(EVERY.summary, EVERY.violations);
    expect(md).toMatch(/^## webmail-log/);
    expect(md).toMatch(/\| pair-order \| error \| 1 \|/);
    expect(md).not.toContain('</failure>');
    expect(md).not.toMatch(/[\x00\x1b\r]/);
    expect(markdownCell('a|b<i>[x](y)')).toBe('a\\|b&lt;i&gt;\\[x\\]\\(y\\)');
  });
});

describe('junit', () => {
  it('has a testsuite per input, a testcase per violation, one per clean rule and a skipped one per rule off', () => {
    const xml = report('junit', EVERY, { severities: severities({ 'session-consistency': 'off' }) });
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name) }).parse(xml);
    const suites = doc.testsuites.testsuite;
    expect(suites.map((s: Record<string, string>) => s['@_name'])).toEqual(['errors.log.1', xmlish(NASTY_NAME)]);
    // stray text (line 1), a pair out of order (3), a lone lookup (4).
    expect(suites[0].testcase.map((t: Record<string, string>) => t['@_name'])).toEqual([
      'pair-order errors.log.1:3',
      'pair-same-second',
      'pair-incomplete errors.log.1:4',
      'chronological',
      'request-id-format',
      'session-consistency',
      'malformed errors.log.1:1',
    ]);
    const order = suites[0].testcase[0];
    expect(order.failure).toHaveLength(1);
    expect(order['@_classname']).toBe('webmail-log.pair-order');
    expect(order.failure[0]['@_message']).toBe('remote-sync lookup (line 2) came before the local lookup');
    expect(order.failure[0]['#text']).toBe('errors.log.1:3 remote-sync lookup (line 2) came before the local lookup');
    expect(suites[0].testcase[5].skipped).toBeDefined();
    const cases = suites.flatMap((s: { testcase: { failure?: unknown[] }[] }) => s.testcase);
    // Jenkins, CircleCI and Azure show one failure per testcase: never more.
    for (const t of cases) expect((t.failure ?? []).length).toBeLessThanOrEqual(1);
    expect(cases.filter((t: { failure?: unknown[] }) => t.failure !== undefined)).toHaveLength(EVERY.violations.length);
    expect(Number(doc.testsuites['@_tests'])).toBe(cases.length);
  });

  it('stays well-formed XML whatever the log holds', () => {
    const xml = report('junit', EVERY, { severities: severities() });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f]/);
    expect(xml).not.toContain(']]>');
    expect(xml.match(/<\/failure>/g)).toHaveLength(EVERY.violations.length);
  });

  it('escapes markup and what XML cannot hold', () => {
    expect(xmlEscape('a<b>&"\'')).toBe('a&lt;b&gt;&amp;&quot;&apos;');
    expect(xmlEscape('\x00\x1b\uffff\ud800x')).toBe('\\x00\\x1b\\uffff\\ud800x');
  });
});

/** What the XML parser gives back for a name: entities decoded, control characters as written by xmlEscape. */
function xmlish(text: string): string {
  return xmlEscape(text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

describe('sarif', () => {
  it('validates against the official SARIF 2.1.0 schema', () => {
    expect(sarifErrors(report('sarif', EVERY))).toBeNull();
    expect(sarifErrors(report('sarif', { summary: EVERY.summary, violations: [] }))).toBeNull();
  });

  it('the validator refuses a broken document (the check can fail)', () => {
    const broken = JSON.parse(report('sarif', EVERY));
    broken.runs[0].results[0].level = 'fatal';
    expect(validateSarif(broken)).toBe(false);
    delete broken.version;
    expect(validateSarif(broken)).toBe(false);
  });

  it('describes every rule and places each result', () => {
    const doc = JSON.parse(report('sarif', EVERY));
    const run = doc.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toHaveLength(7);
    for (const r of run.tool.driver.rules) {
      expect(r.shortDescription.text).not.toBe('');
      expect(r.fullDescription.text).not.toBe('');
      expect(r.help.text).not.toBe('');
      expect(['error', 'warning']).toContain(r.defaultConfiguration.level);
    }
    const first = run.results[0];
    expect(first).toMatchObject({
      ruleId: 'malformed',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'errors.log.1' }, region: { startLine: 1 } } }],
    });
    const prints = run.results.map((r: { partialFingerprints: Record<string, string> }) => r.partialFingerprints['webmailLogFinding/v1']);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('writes paths as URI references', () => {
    expect(artifactUri('logs/errors.log')).toBe('logs/errors.log');
    expect(artifactUri('/var/log/a b#1.log')).toBe('/var/log/a%20b%231.log');
    expect(artifactUri('-')).toBe('-');
  });
});

describe('gitlab', () => {
  it('writes Code Quality issues with unique fingerprints', () => {
    const issues = JSON.parse(report('gitlab', EVERY));
    expect(issues).toHaveLength(EVERY.violations.length);
    expect(issues[1]).toEqual({
      description: 'pair-order: remote-sync lookup (line 2) came before the local lookup',
      check_name: 'pair-order',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      severity: 'major',
      location: { path: 'errors.log.1', lines: { begin: 3 } },
    });
    expect(issues.find((i: { check_name: string }) => i.check_name === 'pair-incomplete').severity).toBe('minor');
    expect(new Set(issues.map((i: { fingerprint: string }) => i.fingerprint)).size).toBe(issues.length);
  });
});

describe('the same violations in every format', () => {
  it('pairs clean logs with empty reports', () => {
    const clean = check(log(pair('10:00:00')));
    expect(report('github', clean)).toBe('');
    expect(JSON.parse(report('gitlab', clean))).toEqual([]);
    expect(JSON.parse(report('sarif', clean)).runs[0].results).toEqual([]);
  });
});
