// The nastiest inputs met so far, kept as regular tests: each runs through the real
// binary, and must give one valid JSON document, every line counted, and exit 0 or 1.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../cli/run.js';
import { trueLineCount } from './arbitraries.js';

const dir = join(ROOT, 'test', 'fixtures', 'hostile');

describe('hostile corpus', () => {
  for (const name of readdirSync(dir).sort()) {
    it(name, async () => {
      const bytes = readFileSync(join(dir, name));
      const ran = await cli(['analyse', '--format', 'json', name], { cwd: dir });
      expect([0, 1]).toContain(ran.status);
      expect(ran.stderr.replace(/^webmail-log: note: .*\n/, '')).toBe('');
      const doc = JSON.parse(ran.stdout);
      expect(doc.summary.lines).toBe(trueLineCount(bytes));
      expect(doc.summary.dbErrors + doc.summary.otherEntries + doc.summary.malformedEntries).toBe(doc.summary.entries);
      const text = await cli(['analyse', '--all', name], { cwd: dir });
      expect(text.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    });
  }

  it('reads what each case is about', async () => {
    const json = async (name: string) => JSON.parse((await cli(['analyse', '--format', 'json', name], { cwd: dir })).stdout);
    expect((await json('only-cr.log')).summary).toMatchObject({ lines: 1, entries: 0 });
    expect((await json('header-at-eof-no-newline.log')).summary).toMatchObject({ lines: 1, entries: 1, dbErrors: 1, refreshLookups: { local: 1, remote: 0 } });
    expect((await json('paren-runs.log')).summary).toMatchObject({ dbErrors: 1, malformedEntries: 0 });
    expect((await json('in-runs.log')).summary).toMatchObject({ dbErrors: 1, malformedEntries: 0 });
    expect((await json('on-line-runs.log')).summary).toMatchObject({ malformedEntries: 1 });
    expect((await json('from-runs.log')).summary).toMatchObject({ dbErrors: 1 });
    expect((await json('crlf-split-header.log')).summary).toMatchObject({ lines: 3, entries: 2 });
    expect((await json('blank-line.log')).violations).toEqual([]);
    const utf8 = await json('invalid-utf8.log');
    expect(utf8.requestIds.at(0)!.id).toBe('\ufffd\ufffd');
    expect(utf8.signatures[0]).toMatchObject({ code: '\ufffd', message: 'no such table: calendars\ufffd' });
  });
});
