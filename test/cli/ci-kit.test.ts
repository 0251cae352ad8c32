// The CI kit: the composite GitHub Action, the GitLab CI template and the README's
// recipes that use them. Their structure is checked, and their shell steps are run as
// the CI runners would run them, on a log with violations.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { log, lookup, pair } from '../helpers.js';
import { ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-kit-'));
writeFileSync(join(dir, 'errors.log'), log(...pair('10:00:07'), lookup('10:01:07', 'calendars'), lookup('10:02:07', 'calendars')));
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The YAML blocks of the README. */
function yamlBlocks(): unknown[] {
  return [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]));
}

describe('the GitHub Action (action.yml)', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));

  it('is a composite action with the inputs CI users reach for', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['logs', 'formats', 'max-warnings', 'sarif-upload']));
    expect(action.inputs.logs.required).toBe(true);
    for (const step of action.runs.steps) if (step.run !== undefined) expect(step.shell, step.name).toBe('bash');
    expect(action.runs.steps.some((s: { uses?: string }) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))).toBe(true);
  });

  it('runs its check step: annotations, SARIF, the warning limit, and the status as an output', () => {
    const check = action.runs.steps.find((s: { id?: string }) => s.id === 'check');
    const output = join(dir, 'github-output');
    writeFileSync(output, '');
    const ran = spawnSync('bash', ['-e', '-c', check.run], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: output, LOGS: 'errors.log', FORMATS: 'github', MAX_WARNINGS: '0', SARIF_UPLOAD: 'true', SARIF_FILE: 'out.sarif' },
    });
    expect(ran.stdout).toMatch(/^::warning file=errors\.log,line=3,title=pair-incomplete::/m);
    expect(ran.stderr).toContain('more than --max-warnings 0');
    expect(readFileSync(output, 'utf8')).toBe('status=1\n');
    expect(JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')).runs[0].results).toHaveLength(2);
  });
});

describe('the GitLab CI template', () => {
  const template = parse(readFileSync(join(ROOT, 'ci', 'webmail-log.gitlab-ci.yml'), 'utf8'));

  it('is a hidden job to extend, with Code Quality and JUnit reports', () => {
    const job = template['.webmail-log'];
    expect(job.artifacts.reports).toEqual({ codequality: 'gl-code-quality.json', junit: 'webmail-log.xml' });
    expect(job.artifacts.when).toBe('always');
  });

  it('runs its script: both reports written, exit 1 over the warning limit', () => {
    const job = template['.webmail-log'];
    // npx stands in for the published package: the script runs this checkout's binary.
    const script = [`npx() { shift 2; node "${ROOT}/bin/webmail-log.js" "$@"; }`, ...job.script].join('\n');
    const ran = spawnSync('bash', ['-e', '-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...job.variables, WEBMAIL_LOG_MAX_WARNINGS: '1' } });
    expect(ran.status).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'gl-code-quality.json'), 'utf8'))).toHaveLength(2);
    expect(readFileSync(join(dir, 'webmail-log.xml'), 'utf8')).toContain('<testsuites name="webmail-log"');
  });
});

describe("the README's recipes", () => {
  it('has a whole GitHub workflow that uses the action', () => {
    const workflows = yamlBlocks().filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null && 'jobs' in b && !('include' in b));
    expect(workflows.length).toBeGreaterThan(0);
    for (const w of workflows) {
      expect(w.on, 'a workflow needs on:').toBeDefined();
      const steps = Object.values(w.jobs as Record<string, { steps: { uses?: string }[] }>).flatMap((j) => j.steps);
      expect(steps.some((s) => s.uses?.startsWith('webmail-log/webmail-log@'))).toBe(true);
    }
  });

  it('has a GitLab job that includes the template and extends it', () => {
    const gitlab = yamlBlocks().find((b): b is Record<string, unknown> => typeof b === 'object' && b !== null && 'include' in b);
    expect(gitlab).toBeDefined();
    expect(JSON.stringify(gitlab!.include)).toContain('ci/webmail-log.gitlab-ci.yml');
    expect(Object.values(gitlab!).some((job) => (job as { extends?: string }).extends === '.webmail-log')).toBe(true);
  });

  it('opens with its title and the two commands, and names no document it does not hold', () => {
    const lines = readme.split('\n');
    expect(lines[0]).toBe('# webmail-log');
    expect(readme).toMatch(/^# webmail-log\n\n```sh\nnpm ci && node bin\/webmail-log\.js analyse samples\/[a-z-]+\/errors\.log\nnpm ci && npm test\n```\n/);
    expect(readme).not.toContain('../shared');
    for (const [name] of readme.matchAll(/[A-Za-z0-9_./-]+\.md\b/g)) expect(existsSync(join(ROOT, name)), name).toBe(true);
  });
});

describe('the package', () => {
  it('ships the program, its licence and the CI kit, and no benchmark', () => {
    const ran = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    const files: string[] = JSON.parse(ran.stdout)[0].files.map((f: { path: string }) => f.path);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'bin/webmail-log.js', 'dist/bundle/webmail-log.js', 'dist/bundle/worker.js', 'action.yml', 'ci/webmail-log.gitlab-ci.yml']));
    expect(files.filter((f) => f.includes('bench'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    for (const key of ['repository', 'bugs', 'homepage']) expect(pkg[key], key).toBeDefined();
  });
});
