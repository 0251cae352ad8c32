// The HTML report in a real browser (Debian's chromium, headless): the numbers on the
// page are the JSON's, hostile log text injects no element and no script runs but the
// report's own (its CSP hash), and a screenshot is taken for a look.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { program } from '../ops/real.js';
import { cli, ROOT } from '../cli/run.js';
import { imap, log, pair } from '../helpers.js';

const chromium = program('chromium', 'chromium');
const dir = mkdtempSync(join(tmpdir(), 'webmail-log-html-'));
// In the clone (git-ignored), not the run's temporary root: it is kept for a look after the run.
const SCREENSHOTS = join(ROOT, 'test-output');

function browser(args: string[]): string {
  const profile = mkdtempSync(join(dir, 'profile-'));
  const ran = spawnSync(
    chromium as string,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, ...args],
    { encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 26 },
  );
  return ran.stdout;
}

/** Text between tags, entities read back. */
function text(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

async function report(name: string, logText: string): Promise<{ html: string; json: any; path: string }> {
  const file = join(dir, `${name}.log`);
  writeFileSync(file, logText);
  const path = join(dir, `${name}.html`);
  await cli(['analyse', '--host', 'web1', '--format', `html=${path}`, '--format', `json=${join(dir, `${name}.json`)}`, file]);
  return { html: readFileSync(path, 'utf8'), json: JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')), path };
}

describe.skipIf(chromium === null)('the HTML report in headless Chromium', () => {
  it('shows the JSON report’s numbers, runs its own script, and a screenshot is taken', async () => {
    const { json, path } = await report('sample', readFileSync(join(ROOT, 'samples', 'every-rule', 'errors.log'), 'utf8'));
    const dom = browser(['--dump-dom', pathToFileURL(path).href]);
    expect(dom).toContain('data-script="ran"');
    const value = (key: string) => {
      const m = new RegExp(`data-key="${key}"[^>]*>([^<]*)<`).exec(dom);
      return m === null ? NaN : Number(m[1].replace(/,/g, ''));
    };
    const s = json.summary;
    expect({ lines: value('lines'), entries: value('entries'), dbErrors: value('dbErrors'), otherEntries: value('otherEntries'), malformed: value('malformedEntries'), ids: value('requestIds'), pairs: value('refreshPairs'), errors: value('errors'), warnings: value('warnings') }).toEqual({
      lines: s.lines,
      entries: s.entries,
      dbErrors: s.dbErrors,
      otherEntries: s.otherEntries,
      malformed: s.malformedEntries,
      ids: s.requestIds,
      pairs: s.refreshPairs,
      errors: s.violations.error,
      warnings: s.violations.warning,
    });
    // Every violation's rule group counts what the JSON lists.
    for (const rule of new Set(json.violations.map((v: { rule: string }) => v.rule))) {
      const m = new RegExp(`data-rule="${rule}"[\\s\\S]*?data-key="ruleCount">(\\d+)<`).exec(dom);
      expect(Number(m?.[1]), String(rule)).toBe(json.violations.filter((v: { rule: string }) => v.rule === rule).length);
    }
    // The entry's lines stand under its violation.
    expect(dom).toContain('[31-Apr-2026');
    mkdirSync(SCREENSHOTS, { recursive: true });
    const shot = join(SCREENSHOTS, 'html-report.png');
    browser([`--screenshot=${shot}`, '--window-size=1280,800', '--hide-scrollbars', pathToFileURL(path).href]);
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    console.log(`screenshot of the HTML report: ${shot}`);
  }, 120_000);

  it('lets hostile log text inject no element and run nothing', async () => {
    const evil = '"><script>document.title="pwned"</script><img src=x onerror=alert(1)>';
    const { html, path } = await report(
      'hostile',
      log(
        pair('10:00:00'),
        `[21-Nov-2026 10:00:01 +0100]: <${evil.replace(/[ >]/g, '')}> IMAP Error: x in f on line 1 (POST /cpsess0123456789/x?_task=mail&_action=refresh)`,
        imap('10:00:02', { id: 'NOTHEX01' }).replace('IMAP Error: Login failed', `IMAP Error: Login failed for <iframe src="https://evil.example/"></iframe> from 192.0.2.1. ${evil}`),
        `[21-Nov-2026 10:00:03 +0100]: <3fa9c2d1> DB Error: ${evil}`,
      ),
    );
    const dom = browser(['--dump-dom', pathToFileURL(path).href]);
    expect(dom).toContain('data-script="ran"');
    // One script element (the report's own), no iframe, no img, and the title unchanged.
    expect(dom.match(/<script/g)).toHaveLength(1);
    expect(dom).not.toMatch(/<iframe|<img/);
    expect(dom).toMatch(/<title>webmail-log: web1<\/title>/);
    // The hostile text is there, as text.
    expect(text(dom)).toContain('<iframe src="https://evil.example/"></iframe>');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[^']+'; script-src 'sha256-[^']+';/);
  }, 120_000);
});

describe('the HTML report’s size', () => {
  it('stays bounded: 20,000 request ids list 10,000 rows and say how to get the rest', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => pair(`${String(10 + Math.floor(i / 3600) % 10).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`, { id: i.toString(16).padStart(8, '0') }));
    const { html } = await report('many', log(...lines.flat()));
    expect(html.match(/<tr><td class="mono">/g)?.length).toBe(10_000);
    expect(html).toContain('10,000 more request ids');
    expect(html.length).toBeLessThan(5_000_000);
  }, 60_000);
});
