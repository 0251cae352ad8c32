// Every sample in samples/ run through the built binary must give its expected JSON and exit status.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
      const ran = await cli(['analyse', '--format', 'json', ...sample.options, ...sample.inputs], { cwd: dir });
      expect(ran.stderr).toBe('');
      expect(JSON.parse(ran.stdout)).toEqual(expected);
      expect(ran.status).toBe(sample.exit);
    });
  }
});

/** Golden reports in the CI formats, where a sample has them: expected.<name> → format. */
const FORMAT_FILES: Record<string, string> = {
  'expected.github.txt': 'github',
  'expected.junit.xml': 'junit',
  'expected.sarif': 'sarif',
  'expected.gitlab.json': 'gitlab',
};

describe('golden reports in the CI formats', () => {
  const cases = names.flatMap((name) =>
    readdirSync(join(samplesDir, name))
      .filter((f) => f in FORMAT_FILES)
      .map((f) => [name, f] as const),
  );

  it('covers every CI format', () => {
    expect(new Set(cases.map(([, f]) => FORMAT_FILES[f]))).toEqual(new Set(Object.values(FORMAT_FILES)));
  });

  for (const [name, file] of cases) {
    it(`${name} as ${FORMAT_FILES[file]}`, async () => {
      const dir = join(samplesDir, name);
      const sample = JSON.parse(readFileSync(join(dir, 'sample.json'), 'utf8')) as Sample;
      const ran = await cli(['analyse', '--format', FORMAT_FILES[file], ...sample.options, ...sample.inputs], { cwd: dir });
      expect(ran.stderr).toBe('');
      expect(ran.stdout).toBe(readFileSync(join(dir, file), 'utf8'));
      expect(ran.status).toBe(sample.exit);
    });
  }
});
