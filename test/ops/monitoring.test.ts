// webmail-log in the monitoring an operator already runs, against the real programs:
// promtool on the textfile and the alert rules; node_exporter's textfile collector
// scraped by Prometheus, whose query API must return what the JSON report says; a live
// follower's /metrics after a violation is appended; rsyslogd receiving every finding
// whole. Each program is started on 127.0.0.1 by the test, and skipped with a visible
// message (naming the Debian package) where it is not installed.

import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { log, lookup, pair } from '../helpers.js';
import { BIN, ROOT, cli, startCli } from '../cli/run.js';
import { freePort, program, start, until } from './real.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-ops-'));
const SAMPLE = join(ROOT, 'samples', 'every-rule', 'errors.log');

const promtool = program('promtool', 'prometheus');
const prometheus = program('prometheus', 'prometheus');
const nodeExporter = program('prometheus-node-exporter', 'prometheus-node-exporter');
const rsyslogd = program('rsyslogd', 'rsyslog');
const logger = program('logger', 'bsdutils');

describe.skipIf(promtool === null)('promtool', () => {
  it('finds nothing to say of the textfile', async () => {
    const ran = await cli(['analyse', '--format', 'prometheus', SAMPLE]);
    const check = spawnSync(promtool as string, ['check', 'metrics'], { input: ran.stdout, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('checks the alert rules and passes their unit test, a log rotation included', () => {
    const rules = join(ROOT, 'ops', 'prometheus');
    const check = spawnSync(promtool as string, ['check', 'rules', 'webmail-log.rules.yml'], { cwd: rules, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const test = spawnSync(promtool as string, ['test', 'rules', 'webmail-log.rules.test.yml'], { cwd: rules, encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain('SUCCESS');
  });
});

async function query(port: number, q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
  return ((await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result;
}

describe.skipIf(prometheus === null || nodeExporter === null)('node_exporter and Prometheus', () => {
  it('returns from its query API the values of the JSON report', async () => {
    const textfiles = join(dir, 'textfile');
    mkdirSync(textfiles, { recursive: true });
    await cli(['analyse', '--format', `prometheus=${join(textfiles, 'webmail-log.prom')}`, '--format', `json=${join(dir, 'report.json')}`, '--log-name', 'errors.log', SAMPLE]);
    const doc = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const exporterPort = await freePort();
    const promPort = await freePort();
    const exporter = start(nodeExporter as string, [`--web.listen-address=127.0.0.1:${exporterPort}`, '--collector.disable-defaults', '--collector.textfile', `--collector.textfile.directory=${textfiles}`]);
    writeFileSync(join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:${exporterPort}']\n`);
    const prom = start(prometheus as string, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`]);
    try {
      // Prometheus needs a few seconds before its first sample can be queried: poll.
      const entries = await until('the first sample', async () => {
        const r = await query(promPort, 'webmail_log_entries_total');
        return r.length > 0 ? r : undefined;
      });
      expect(entries[0].metric).toMatchObject({ log: 'errors.log', job: 'node' });
      expect(Number(entries[0].value[1])).toBe(doc.summary.entries);
      const value = async (q: string) => Number((await query(promPort, q))[0].value[1]);
      expect(await value('webmail_log_lines_total')).toBe(doc.summary.lines);
      expect(await value('webmail_log_refresh_pairs_total')).toBe(doc.summary.refreshPairs);
      expect(await value('webmail_log_refresh_lookups_total{side="local"}')).toBe(doc.summary.refreshLookups.local);
      expect(await value('webmail_log_request_ids')).toBe(doc.summary.requestIds);
      expect(await value('sum(webmail_log_violations_total{severity="error"})')).toBe(doc.summary.violations.error);
      expect(await value('sum(webmail_log_violations_total{severity="warning"})')).toBe(doc.summary.violations.warning);
      expect(await value('webmail_log_diagnosis_entries{diagnosis="calendar-tables-missing"}')).toBe(doc.diagnosis[0].entries);
      expect(await value('webmail_log_last_run_success')).toBe(1);
      // One series per rule that is on, zero included.
      expect((await query(promPort, 'webmail_log_violations_total')).length).toBe(7);
      expect(await value('node_textfile_scrape_error')).toBe(0);
    } finally {
      await prom.stop();
      await exporter.stop();
    }
  }, 90_000);
});

describe('a live follower’s /metrics', () => {
  it('counts a violation appended to the followed file, and says a busy address in one line', async () => {
    const file = join(dir, 'live.log');
    writeFileSync(file, '');
    const port = await freePort();
    const live = startCli(['analyse', '--follow', '--format', 'ndjson', '--metrics-listen', `127.0.0.1:${port}`, file]);
    try {
      const scrape = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      await until('the endpoint', async () => ((await scrape()).includes('webmail_log_entries_total') ? true : undefined), 20_000);
      appendFileSync(file, log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars')));
      expect(JSON.parse(await live.nextLine()).rule).toBe('pair-order');
      const text = await scrape();
      expect(text).toMatch(new RegExp(`webmail_log_violations_total\\{rule="pair-order",severity="error",log="${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\} 1\\n`));
      expect(text).toMatch(/webmail_log_entries_total\{log="[^"]*"\} 2\n/);
      expect(text).toContain('process_cpu_seconds_total');
      if (promtool !== null) {
        // Our families (prom-client's own process metrics have lint of their own).
        const ours = text.split('\n').filter((l) => l.includes('webmail_log_')).join('\n') + '\n';
        const check = spawnSync(promtool, ['check', 'metrics'], { input: ours, encoding: 'utf8' });
        expect(check.stdout + check.stderr).toBe('');
        expect(check.status, check.stdout + check.stderr).toBe(0);
      }
      const busy = await cli(['analyse', '--follow', '--metrics-listen', `127.0.0.1:${port}`, file]);
      expect(busy.stderr).toBe(`webmail-log: cannot listen on 127.0.0.1:${port}: the address is in use\n`);
      expect(busy.status).toBe(2);
    } finally {
      live.child.kill('SIGTERM');
      await live.done;
    }
  });
});

describe.skipIf(rsyslogd === null || logger === null)('rsyslogd', () => {
  it('receives every finding whole, over TCP as RFC 5424 with octet counting', async () => {
    const port = await freePort();
    const out = join(dir, 'findings.ndjson');
    const conf = readFileSync(join(ROOT, 'ops', 'rsyslog', 'central.conf'), 'utf8').replace('port="514"', `port="${port}" address="127.0.0.1"`).replace('/var/log/webmail-log/findings.ndjson', out);
    const work = join(dir, 'rsyslog');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(dir, 'rsyslog.conf'), `global(workDirectory="${work}")\n${conf}`);
    const daemon = start(rsyslogd as string, ['-n', '-f', join(dir, 'rsyslog.conf'), '-i', join(dir, 'rsyslog.pid')]);
    try {
      await until('rsyslogd', async () => {
        const probe = spawnSync(logger as string, ['--rfc5424', '--octet-count', '--tcp', '--server', '127.0.0.1', '--port', String(port), '--tag', 'probe', 'up'], { encoding: 'utf8' });
        return probe.status === 0 ? true : undefined;
      }, 20_000);
      // A log whose findings and summary are long: the summary line is several KiB.
      const long = log(...Array.from({ length: 40 }, (_, i) => pair(`10:${String(i).padStart(2, '0')}:07`, { id: `${'x'.repeat(56)}${String(i).padStart(8, '0')}` })));
      const logfile = join(dir, 'long.log');
      writeFileSync(logfile, long);
      const ndjson = spawnSync(process.execPath, [BIN, 'analyse', '--format', 'ndjson', logfile], { encoding: 'utf8' }).stdout;
      const sent = ndjson.trim().split('\n');
      expect(Math.max(...sent.map((l) => l.length))).toBeGreaterThan(4096);
      const ship = spawnSync('sh', ['-c', `"${logger}" --rfc5424 --octet-count -S 65536 --tcp --server 127.0.0.1 --port ${port} --tag webmail-log`], { input: ndjson, encoding: 'utf8' });
      expect(ship.status, ship.stderr).toBe(0);
      const got = await until('every finding', async () => {
        // rsyslogd writes the file in pieces: a line is whole only once its newline is there
        // (a summary of several KiB was once read cut short).
        const text = readFileSync(out, 'utf8');
        const lines = text.slice(0, text.lastIndexOf('\n')).split('\n');
        return lines.length >= sent.length ? lines : undefined;
      }, 20_000);
      expect(got).toEqual(sent);
      for (const line of got) JSON.parse(line);
    } finally {
      await daemon.stop();
    }
  }, 60_000);
});
