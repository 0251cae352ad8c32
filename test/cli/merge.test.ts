// merge: an exact fleet report from per-host reports, whatever their order, and merged
// reports merge again to the same bytes.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-merge-'));
const sample = (name: string) => join(ROOT, 'samples', name, 'errors.log');

async function hostReport(host: string, log: string): Promise<string> {
  const ran = await cli(['analyse', '--format', 'json', '--host', host, log]);
  const path = join(dir, `${host}.json`);
  writeFileSync(path, ran.stdout);
  return path;
}

describe('merge', () => {
  it('sums every count, keeps each row with its host, and does not depend on the order of the inputs', async () => {
    const a = await hostReport('web1', sample('operator-diagnosis'));
    const b = await hostReport('web2', sample('every-rule'));
    const c = await hostReport('web3', sample('clean-sessions'));
    const abc = await cli(['merge', '--format', 'json', a, b, c], { cwd: dir });
    const cba = await cli(['merge', '--format', 'json', c, b, a], { cwd: dir });
    expect(abc.stdout).toBe(cba.stdout);
    const doc = JSON.parse(abc.stdout);
    const parts = [a, b, c].map((p) => JSON.parse(readFileSync(p, 'utf8')));
    for (const key of ['lines', 'entries', 'dbErrors', 'otherEntries', 'malformedEntries', 'requestIds', 'refreshPairs', 'files'] as const) {
      expect(doc.summary[key], key).toBe(parts.reduce((n, p) => n + p.summary[key], 0));
    }
    expect(doc.summary.violations.error).toBe(parts.reduce((n, p) => n + p.summary.violations.error, 0));
    expect(doc.hosts.map((h: { host: string }) => h.host)).toEqual(['web1', 'web2', 'web3']);
    expect(doc.violations).toHaveLength(parts.reduce((n, p) => n + p.violations.length, 0));
    expect(doc.violations.map((v: { host: string }) => v.host)).toEqual([...doc.violations.map((v: { host: string }) => v.host)].sort());
    expect(doc.requestIds.filter((r: { host: string }) => r.host === 'web2').map((r: { id: string }) => r.id)).toEqual(parts[1].requestIds.map((r: { id: string }) => r.id));
    expect(abc.status).toBe(1);
  });

  it('merges merged reports to the same bytes: merge(merge(a, b), c) = merge(a, b, c)', async () => {
    const a = await hostReport('h1', sample('rotation-set').replace('errors.log', 'errors.log'));
    const b = await hostReport('h2', sample('multiline-sql'));
    const c = await hostReport('h3', sample('every-rule'));
    const ab = join(dir, 'ab.json');
    writeFileSync(ab, (await cli(['merge', '--format', 'json', a, b])).stdout);
    const nested = await cli(['merge', '--format', 'json', ab, c]);
    const flat = await cli(['merge', '--format', 'json', a, b, c]);
    expect(nested.stdout).toBe(flat.stdout);
  });

  it('writes a SARIF run per host, each of its own category', async () => {
    const a = await hostReport('alpha', sample('every-rule'));
    const b = await hostReport('beta', sample('every-rule'));
    const sarif = JSON.parse((await cli(['merge', '--format', 'sarif', a, b])).stdout);
    expect(sarif.runs.map((r: { automationDetails: { id: string } }) => r.automationDetails.id)).toEqual(['webmail-log/alpha/', 'webmail-log/beta/']);
    expect(sarif.runs[0].results.length).toBe(sarif.runs[1].results.length);
  });

  it('exits per SPEC §4 over the merged violations, --max-warnings too', async () => {
    const clean = await hostReport('clean1', sample('clean-sessions'));
    const clean2 = await hostReport('clean2', sample('clean-sessions'));
    const ran = await cli(['merge', clean, clean2]);
    expect(ran.status).toBe(JSON.parse(readFileSync(clean, 'utf8')).summary.violations.error > 0 ? 1 : 0);
  });

  it('refuses, in one line and with exit 2, a file that is no report, another schemaVersion, and one host twice', async () => {
    const a = await hostReport('dup', sample('every-rule'));
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": "world"}');
    const v2 = join(dir, 'v2.json');
    writeFileSync(v2, JSON.stringify({ ...JSON.parse(readFileSync(a, 'utf8')), schemaVersion: 2 }));
    for (const [args, message] of [
      [[junk], `webmail-log: ${junk}: not a webmail-log report (no schemaVersion)\n`],
      [[v2], `webmail-log: ${v2}: schemaVersion 2; merge reads 1\n`],
      [[a, a], `webmail-log: ${a}: host "dup" is already in ${a}\n`],
    ] as const) {
      const ran = await cli(['merge', ...args]);
      expect(ran.stderr).toBe(message);
      expect(ran.status).toBe(2);
    }
  });
});
