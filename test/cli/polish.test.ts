// What a new user hit first (issue: a silent green, a report wider than the terminal,
// absolute CI paths, colour words, -o, messages): each one run through the built binary.

import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { imap, log, lookup, pair } from '../helpers.js';
import { cli, ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-polish-'));
const repo = join(dir, 'repo');
mkdirSync(join(repo, 'logs'), { recursive: true });
const MIXED = log('stray', ...pair('10:00:07'), lookup('10:01:07', 'calendars'), imap('10:02:00', { id: 'ns0tbuc0' }));
writeFileSync(join(repo, 'logs', 'errors.log'), MIXED);
const outside = join(dir, 'outside.log');
writeFileSync(outside, MIXED);
const CI_ENV = { GITHUB_WORKSPACE: undefined, CI_PROJECT_DIR: undefined, GITHUB_STEP_SUMMARY: undefined };

function widest(text: string): number {
  return Math.max(...text.split('\n').map((l) => [...l].length));
}

describe('CI paths are relative to the repository', () => {
  it('GitLab: CI_PROJECT_DIR, whatever way the file was named', async () => {
    for (const name of ['logs/errors.log', './logs/errors.log', join(repo, 'logs', 'errors.log')]) {
      const ran = await cli(['analyse', '--format', 'gitlab', name], { cwd: repo, env: { ...CI_ENV, CI_PROJECT_DIR: repo } });
      const paths = new Set(JSON.parse(ran.stdout).map((i: { location: { path: string } }) => i.location.path));
      expect([...paths], name).toEqual(['logs/errors.log']);
    }
  });

  it('GitHub: GITHUB_WORKSPACE, from a subdirectory too', async () => {
    const ran = await cli(['analyse', '--format', 'github', 'errors.log'], { cwd: join(repo, 'logs'), env: { ...CI_ENV, GITHUB_WORKSPACE: repo } });
    expect(ran.stdout).toMatch(/^::error file=logs\/errors\.log,line=1,/);
  });

  it('keeps the absolute path of a file outside the repository (a file:// URI in SARIF)', async () => {
    const gitlab = await cli(['analyse', '--format', 'gitlab', outside], { cwd: repo, env: CI_ENV });
    expect(JSON.parse(gitlab.stdout)[0].location.path).toBe(outside);
    const sarif = JSON.parse((await cli(['analyse', '--format', 'sarif', outside, 'logs/errors.log'], { cwd: repo, env: CI_ENV })).stdout);
    const locations = sarif.runs[0].results.map((r: { locations: { physicalLocation: { artifactLocation: unknown } }[] }) => r.locations[0].physicalLocation.artifactLocation);
    expect(locations).toContainEqual({ uri: `file://${outside}` });
    expect(locations).toContainEqual({ uri: 'logs/errors.log', uriBaseId: '%SRCROOT%' });
    expect(sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${repo}/`);
  });

  it('JSON keeps the path as given (SPEC §5)', async () => {
    const ran = await cli(['analyse', '--format', 'json', './logs/errors.log'], { cwd: repo, env: { ...CI_ENV, CI_PROJECT_DIR: repo } });
    expect(JSON.parse(ran.stdout).violations[0].file).toBe('./logs/errors.log');
  });
});

describe("Microsoft's SARIF validator (npm @microsoft/sarif-multitool)", () => {
  const require = createRequire(import.meta.url);
  let tool: string | null = null;
  try {
    tool = join(dirname(require.resolve('@microsoft/sarif-multitool-linux/package.json')), 'Sarif.Multitool');
    try {
      accessSync(tool, constants.X_OK);
    } catch {
      // npm may skip the package's own chmod (install scripts not allowed).
      chmodSync(tool, 0o755);
    }
  } catch {
    tool = null;
  }
  const run = tool === null ? it.skip : it;
  if (tool === null) console.warn('SKIPPED: the SARIF validator needs the npm package @microsoft/sarif-multitool (Linux x64)');

  run('reports nothing on our SARIF, inside and outside the repository', async () => {
    const file = join(dir, 'report.sarif');
    await cli(['analyse', '--format', `sarif=${file}`, 'logs/errors.log', outside], { cwd: repo, env: CI_ENV });
    const ran = spawnSync(tool as string, ['validate', '--rule-kind', 'Gh;Sarif', file], { encoding: 'utf8', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('1 files scanned');
    expect(ran.stdout).not.toMatch(/: (error|warning|note) [A-Z]+\d+/);
  });
});

describe('the text report fits the terminal', () => {
  for (const sample of ['every-rule', 'operator-diagnosis', 'multiline-sql', 'dst-fall-back']) {
    it(`${sample}: no line wider than 80 at COLUMNS=80`, async () => {
      const ran = await cli(['analyse', '--all', 'errors.log'], { cwd: join(ROOT, 'samples', sample), env: { COLUMNS: '80' } });
      expect(widest(ran.stdout)).toBeLessThanOrEqual(80);
    });
  }

  it('uses the room it has: a wide terminal keeps every request-id column', async () => {
    const wide = await cli(['analyse', 'errors.log'], { cwd: join(ROOT, 'samples', 'every-rule'), env: { COLUMNS: '200' } });
    expect(wide.stdout).toMatch(/request id +session segments +entries +pairs +first +last +refreshes +gap median/);
    const narrow = await cli(['analyse', 'errors.log'], { cwd: join(ROOT, 'samples', 'every-rule'), env: { COLUMNS: '80' } });
    expect(narrow.stdout).not.toContain('gap median');
  });

  it('never splits a command that is meant to be copied', async () => {
    const ran = await cli(['analyse', 'errors.log'], { cwd: join(ROOT, 'samples', 'operator-diagnosis'), env: { COLUMNS: '40' } });
    expect(ran.stdout).toContain('\n      sqlite3 ~USER/etc/DOMAIN/MAILBOX.rcube.db < sqlite.initial.sql\n');
  });
});

describe('messages', () => {
  it('suggests the request-id alphabet once, when every flagged id fits one of PHP', async () => {
    const php5 = log(...pair('10:00:07', { id: 'ns0tbuc0' }), ...pair('10:01:07', { id: 'bq90cn5q' }));
    const ran = await cli(['analyse', '-'], { stdin: php5, env: { COLUMNS: '100' } });
    expect(ran.stdout.match(/--request-id-alphabet php5/g)).toHaveLength(1);
    expect(ran.stdout).toContain('"requestIdAlphabet": "php5"');
    const mixed = await cli(['analyse', '-'], { stdin: log(...pair('10:00:07', { id: 'NOT-HEX!' })) });
    expect(mixed.stdout).not.toContain('--request-id-alphabet');
  });

  it('says "did you mean" for a mistyped rule, explain topic, format and colour word', async () => {
    expect((await cli(['analyse', '--rule', 'pair-ordr=off', 'x'])).stderr).toMatch(/unknown rule "pair-ordr" \(did you mean "pair-order"\?\)/);
    expect((await cli(['explain', 'pair-ordr'])).stderr).toMatch(/nothing known about "pair-ordr" \(did you mean "pair-order"\?\)/);
    expect((await cli(['analyse', '--format', 'sarf', 'x'])).stderr).toMatch(/unknown format "sarf" \(did you mean "sarif"\?\)/);
    const color = await cli(['analyse', '--color=allways', 'x']);
    expect(color.stderr).toBe('webmail-log: --color takes always, auto or never, not "allways" (did you mean "always"?)\n');
    expect(color.status).toBe(2);
  });

  it('fits every help page to the width, and never splits an example command', async () => {
    // The examples' commands are whole lines; a line of the width or less is all else.
    const command = /^  (webmail-log|tail) /;
    for (const page of [['--help'], ['analyse', '--help'], ['merge', '--help'], ['explain', '--help'], ['rules', '--help']]) {
      for (const columns of [60, 80, 120]) {
        const help = (await cli(page, { env: { COLUMNS: String(columns) } })).stdout;
        const long = help.split('\n').filter((l) => l.length > columns && !command.test(l));
        expect(long, `${page.join(' ')} at ${columns}`).toEqual([]);
      }
    }
    const at80 = (await cli(['analyse', '--help'], { env: { COLUMNS: '80' } })).stdout;
    expect(at80).toContain("\n  webmail-log analyse -f --format ndjson errors.log | jq -c 'select(.rule)'\n      (each violation as a line of JSON)\n");
    expect(at80).toMatch(/\n {2}prometheus {2}Prometheus text format, for node_exporter's textfile collector\n {14}\(written atomically\)\n/);
    const at120 = (await cli(['analyse', '--help'], { env: { COLUMNS: '120' } })).stdout;
    expect(at120).toMatch(/\n {2}tail -f errors\.log \| webmail-log analyse - {3,}\(each violation as it is found\)\n/);
    // The lists `rules` and `explain` print are wrapped to the same width as a report.
    for (const page of [['rules'], ['explain']]) {
      const text = (await cli(page, { env: { COLUMNS: '60' } })).stdout;
      expect(widest(text), page[0]).toBeLessThanOrEqual(60);
      expect(text).toMatch(/^ *pair-order +(error +)?within one refresh pair the\n {30,}remote-sync lookup precedes\n {30,}the local one$/m);
    }
    // The commands' list wraps too: commander does only with 40 columns left beside the terms.
    expect((await cli(['--help'], { env: { COLUMNS: '80' } })).stdout).toContain('\n  analyse [inputs...]  Check one or more logs');
  });

  it('leaks no commander default into the help', async () => {
    const help = (await cli(['analyse', '--help'])).stdout;
    expect(help).not.toContain('(default: [])');
    expect(help).not.toMatch(/\(default[^)]*\)[^\n]*\(default/);
    expect(help).not.toContain('(choices:');
    // The default threads are capped (src/parallel/read.ts), and the help says so.
    expect(help.replace(/\s+/g, ' ')).toMatch(/--jobs <n> threads that parse large files \(default: the cores, at most 4: [1-4] here\)/);
  });
});

describe('colour and -o', () => {
  const errs = join(repo, 'logs', 'errors.log');

  it('takes --color=always|never|auto, and TERM=dumb turns auto off', async () => {
    expect((await cli(['analyse', '--color=always', errs])).stdout).toMatch(/\x1b\[/);
    expect((await cli(['analyse', '--color=never', errs], { env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(/\x1b\[/);
    expect((await cli(['analyse', '--color=auto', errs])).stdout).not.toMatch(/\x1b\[/);
  });

  it('-o writes the one report to a file, as --format <format>=<file> does', async () => {
    const out = join(dir, 'o.json');
    const ran = await cli(['analyse', '--format', 'json', '-o', out, errs]);
    expect(ran.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.entries).toBe(4);
    const two = await cli(['analyse', '--format', 'json', '--format', 'sarif', '-o', out, errs]);
    expect(two.status).toBe(2);
  });
});
