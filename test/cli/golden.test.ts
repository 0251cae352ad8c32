// Every sample in samples/ run through the built binary must give its expected JSON and exit status.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FORMATS, type Format } from '../../src/report/registry.js';
import { cli, ROOT } from './run.js';

interface Sample {
  description: string;
  inputs: string[];
  options: string[];
  exit: number;
}

const samplesDir = join(ROOT, 'samples');
const names = readdirSync(samplesDir).filter((n) => !n.startsWith('.')).sort();

describe('golden samples', () => {
  it('has the samples the project promises', () => {
    for (const required of ['clean-sessions', 'every-rule', 'multiline-sql', 'dst-fall-back', 'rotation-set', 'php-fatal', 'table-names', 'non-hex-ids', 'empty']) {
      expect(names).toContain(required);
    }
  });

  for (const name of names) {
    it(name, async () => {
      const dir = join(samplesDir, name);
      const sample = JSON.parse(readFileSync(join(dir, 'sample.json'), 'utf8')) as Sample;
      const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
      const ran = await cli(['analyse', '--format', 'json', '--host', 'golden', ...sample.options, ...sample.inputs], { cwd: dir });
      expect(ran.stderr).toBe('');
      expect(JSON.parse(ran.stdout)).toEqual(expected);
      expect(ran.status).toBe(sample.exit);
    });
  }
});

/**
 * Golden reports in every other registered format, where a sample has them: a file
 * `expected.<format>.<ext>` (or `expected.<format>`). Run as CI would: no colour, 80
 * columns, paths relative to the sample's directory. The repository's file URI, which
 * differs between clones, stands as file:///ROOT/ in the files.
 */
const GOLDEN_ENV = { COLUMNS: '80', GITHUB_WORKSPACE: undefined, CI_PROJECT_DIR: undefined, GITHUB_STEP_SUMMARY: undefined };

/** What differs between two runs of one log: the clone's place, when the run was and how long it took. */
function normalise(text: string, dir: string): string {
  return text
    .replaceAll(pathToFileURL(dir).href + '/', 'file:///ROOT/')
    .replace(/^(webmail_log_(?:last_run_timestamp|run_duration)_seconds\{[^}]*\}) .*$/gm, '$1 <when>')
    .replace(/(webmail_log_build_info\{version=")[^"]*"/, '$1<version>"')
    .replace(/(<td>webmail-log )[^,]*, [^<]*(<\/td>)/, '$1<version>, <when>$2');
}

function goldenFormat(file: string): Format | null {
  const m = /^expected\.([a-z]+)(?:\.[a-z]+)?$/.exec(file);
  return m !== null && m[1] !== 'json' && (FORMATS as string[]).includes(m[1]) ? (m[1] as Format) : null;
}

describe('golden reports in every format', () => {
  const cases = names.flatMap((name) =>
    readdirSync(join(samplesDir, name))
      .filter((f) => goldenFormat(f) !== null)
      .map((f) => [name, f, goldenFormat(f) as Format] as const),
  );

  it('covers every registered format', () => {
    expect(new Set([...cases.map(([, , format]) => format), 'json'])).toEqual(new Set(FORMATS));
  });

  for (const [name, file, format] of cases) {
    it(`${name} as ${format}`, async () => {
      const dir = join(samplesDir, name);
      const sample = JSON.parse(readFileSync(join(dir, 'sample.json'), 'utf8')) as Sample;
      const ran = await cli(['analyse', '--format', format, '--host', 'golden', ...sample.options, ...sample.inputs], { cwd: dir, env: GOLDEN_ENV });
      expect(ran.stderr).toBe('');
      expect(normalise(ran.stdout, dir)).toBe(readFileSync(join(dir, file), 'utf8'));
      expect(ran.status).toBe(sample.exit);
    });
  }
});
