// The binary as a CI job runs it: reports to files, thresholds, the config file, and
// the GitHub step summary.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { log, lookup, pair } from '../helpers.js';
import { INJECTION_LOG, NASTY_NAME } from '../report/injection.js';
import { cli } from './run.js';

function workdir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'webmail-log-ci-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

// One error (pair-order) and two warnings (pair-incomplete, request-id-format).
const MIXED = log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'), lookup('10:01:07', 'calendars', { id: 'NOTHEX01' }));
const WARNINGS = log(pair('10:00:07'), lookup('10:01:07', 'calendars'), lookup('10:02:07', 'calendars', { id: 'NOTHEX01' }));

describe('reports to files', () => {
  it('writes text to the terminal and SARIF and JUnit to files in one run', async () => {
    const dir = workdir({ 'errors.log': MIXED });
    const ran = await cli(['analyse', '--format', 'text', '--format', 'sarif=report.sarif', '--format', 'junit=report.xml', 'errors.log'], { cwd: dir });
    expect(ran.status).toBe(1);
    expect(ran.stdout).toMatch(/Overview/);
    expect(JSON.parse(readFileSync(join(dir, 'report.sarif'), 'utf8')).runs[0].results).toHaveLength(3);
    expect(readFileSync(join(dir, 'report.xml'), 'utf8')).toMatch(/^<\?xml/);
  });

  it('defaults to text on stdout only when no format is named', async () => {
    const dir = workdir({ 'errors.log': MIXED });
    const ran = await cli(['analyse', '--format', 'json=r.json', 'errors.log'], { cwd: dir });
    expect(ran.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).violations).toHaveLength(3);
  });

  it('refuses two formats on stdout, one file twice, and a file it cannot write, before reading', async () => {
    const dir = workdir({ 'errors.log': MIXED });
    const two = await cli(['analyse', '--format', 'text', '--format', 'json', 'errors.log'], { cwd: dir });
    expect(two.status).toBe(2);
    expect(two.stderr).toBe('webmail-log: only one format can go to stdout; send the others to files with --format <format>=<file>\n');
    const twice = await cli(['analyse', '--format', 'json=a', '--format', 'sarif=a', 'errors.log'], { cwd: dir });
    expect(twice.stderr).toBe('webmail-log: two reports would be written to a\n');
    const cannot = await cli(['analyse', '--format', 'sarif=no/such/dir/r.sarif', 'errors.log'], { cwd: dir });
    expect(cannot.status).toBe(2);
    expect(cannot.stderr).toBe('webmail-log: cannot write no/such/dir/r.sarif: no such directory\n');
    expect(cannot.stdout).toBe('');
  });
});

describe('thresholds', () => {
  it('--max-warnings: exit 1 above it, 0 at it', async () => {
    const dir = workdir({ 'errors.log': WARNINGS });
    expect((await cli(['analyse', 'errors.log'], { cwd: dir })).status).toBe(0);
    // Three warnings: two lone lookups and one non-hex id.
    expect((await cli(['analyse', '--max-warnings', '3', 'errors.log'], { cwd: dir })).status).toBe(0);
    const over = await cli(['analyse', '--max-warnings', '2', 'errors.log'], { cwd: dir });
    expect(over.status).toBe(1);
    expect(over.stderr).toBe('webmail-log: 3 warnings, more than --max-warnings 2\n');
    expect((await cli(['analyse', '--max-warnings', 'many', 'errors.log'], { cwd: dir })).status).toBe(2);
  });

  it('--quiet reports errors only, and the exit status still counts warnings', async () => {
    const dir = workdir({ 'errors.log': MIXED, 'warnings.log': WARNINGS });
    const mixed = JSON.parse((await cli(['analyse', '--quiet', '--format', 'json', 'errors.log'], { cwd: dir })).stdout);
    expect(mixed.violations.map((v: { rule: string }) => v.rule)).toEqual(['pair-order']);
    expect(mixed.summary.violations).toEqual({ error: 1, warning: 2 });
    const quietStrict = await cli(['analyse', '--quiet', '--strict', '--format', 'github', 'warnings.log'], { cwd: dir });
    expect(quietStrict.stdout).toBe('');
    expect(quietStrict.status).toBe(1);
    expect(quietStrict.stderr).toBe('webmail-log: 3 warnings, and --strict fails on any\n');
    expect((await cli(['analyse', '--quiet', '--max-warnings', '0', 'warnings.log'], { cwd: dir })).status).toBe(1);
  });
});

describe('config file', () => {
  it('is read from the working directory; flags win over it', async () => {
    const dir = workdir({ 'errors.log': MIXED, 'webmail-log.config.json': JSON.stringify({ rules: { 'pair-order': 'warning' }, format: 'json' }) });
    const ran = await cli(['analyse', 'errors.log'], { cwd: dir });
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout).violations[0]).toMatchObject({ rule: 'pair-order', severity: 'warning' });
    const flagged = await cli(['analyse', '--rule', 'pair-order=error', '--format', 'gitlab', 'errors.log'], { cwd: dir });
    expect(flagged.status).toBe(1);
    expect(JSON.parse(flagged.stdout)[0].severity).toBe('major');
  });

  it('sets the pairing window and the request-id alphabet', async () => {
    const late = log(lookup('10:00:07', 'calendars', { id: 'ns0tbuc0' }), lookup('10:00:50', 'caldav_calendars', { id: 'ns0tbuc0' }));
    const dir = workdir({ 'errors.log': late, 'c.json': JSON.stringify({ pairWindow: 60, requestIdAlphabet: 'php5' }) });
    const rules = async (args: string[]) => JSON.parse((await cli(['analyse', '--format', 'json', ...args, 'errors.log'], { cwd: dir })).stdout).violations.map((v: { rule: string }) => v.rule);
    expect(await rules([])).toEqual(['pair-incomplete', 'request-id-format', 'pair-incomplete']);
    expect(await rules(['--config', 'c.json'])).toEqual(['pair-same-second']);
    expect(await rules(['--config', 'c.json', '--pair-window', '30', '--request-id-alphabet', 'hex'])).toEqual(['pair-incomplete', 'request-id-format', 'pair-incomplete']);
  });

  it('names a bad key and exits 2', async () => {
    const dir = workdir({ 'errors.log': MIXED, 'webmail-log.config.json': '{"rulez": {}}' });
    const ran = await cli(['analyse', 'errors.log'], { cwd: dir });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/^webmail-log: webmail-log\.config\.json: unknown key "rulez"/);
    const missing = await cli(['analyse', '--config', 'none.json', 'errors.log'], { cwd: dir });
    expect(missing.stderr).toBe('webmail-log: none.json: no such file\n');
  });
});

describe('GitHub', () => {
  it('appends a Markdown summary to GITHUB_STEP_SUMMARY when it is set', async () => {
    const dir = workdir({ 'errors.log': MIXED, 'summary.md': '# before\n' });
    const ran = await cli(['analyse', '--format', 'github', 'errors.log'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') } });
    expect(ran.stdout.split('\n')[0]).toBe('::error file=errors.log,line=2,title=pair-order::remote-sync lookup (line 1) came before the local lookup');
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^# before\n## webmail-log/);
    expect(md).toMatch(/\| pair-order \| error \| 1 \| errors\.log:2 /);
  });

  it('leaves GITHUB_STEP_SUMMARY alone for other formats', async () => {
    const dir = workdir({ 'errors.log': MIXED });
    await cli(['analyse', '--format', 'json', 'errors.log'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: join(dir, 'summary.md') } });
    expect(existsSync(join(dir, 'summary.md'))).toBe(false);
  });
});

describe('hostile log text through the binary', () => {
  it('gives safe, valid output in every format', async () => {
    const dir = workdir({ [NASTY_NAME]: INJECTION_LOG });
    for (const format of ['text', 'json', 'ndjson', 'github', 'junit', 'sarif', 'gitlab']) {
      const ran = await cli(['analyse', '--all', '--format', format, NASTY_NAME], { cwd: dir });
      expect(ran.status, format).toBe(1);
      expect(ran.stdout, format).not.toMatch(/[\x00\x1b\r\u202e]/);
      if (['json', 'sarif', 'gitlab'].includes(format)) JSON.parse(ran.stdout);
      if (format === 'ndjson') ran.stdout.trim().split('\n').forEach((l) => JSON.parse(l));
      if (format === 'github') for (const line of ran.stdout.trim().split('\n')) expect(line).toMatch(/^::(error|warning) /);
    }
  });
});
