// The systemd units of the operations kit: systemd-analyze accepts them, and the command
// each one runs works, with its paths moved to a temporary directory.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../cli/run.js';
import { log, pair } from '../helpers.js';
import { freePort, program, start } from './real.js';

const units = join(ROOT, 'ops', 'systemd');
const analyze = program('systemd-analyze', 'systemd');
const dir = mkdtempSync(join(tmpdir(), 'webmail-log-systemd-'));
const logFile = join(dir, 'errors.log');
writeFileSync(logFile, log(...pair('10:00:00')));

/** The unit's ExecStart as arguments, its paths moved under `dir`, run with this checkout's binary. */
function execStart(unit: string): string[] {
  const line = readFileSync(join(units, unit), 'utf8').split('\n').find((l) => l.startsWith('ExecStart='));
  const words = (line as string).slice('ExecStart='.length).split(' ');
  expect(words.slice(0, 2)).toEqual(['/usr/bin/env', 'webmail-log']);
  return words.slice(2).map((w) =>
    w.replace('/usr/local/cpanel/3rdparty/roundcube/logs/errors.log', logFile).replace('/var/lib/prometheus/node-exporter/', `${dir}/textfile/`).replace('/var/lib/webmail-log/', `${dir}/state/`),
  );
}

describe('systemd units', () => {
  it.skipIf(analyze === null)('pass systemd-analyze verify', () => {
    const ran = spawnSync(analyze as string, ['verify', ...['webmail-log-textfile.service', 'webmail-log-textfile.timer', 'webmail-log-follow.service'].map((u) => join(units, u))], { encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
  });

  it('runs the textfile service: the metrics file and the JSON report are written', () => {
    mkdirSync(join(dir, 'textfile'), { recursive: true });
    mkdirSync(join(dir, 'state'), { recursive: true });
    const ran = spawnSync(process.execPath, [BIN, ...execStart('webmail-log-textfile.service')], { encoding: 'utf8' });
    expect(ran.status, ran.stderr).toBe(0);
    expect(readFileSync(join(dir, 'textfile', 'webmail-log.prom'), 'utf8')).toContain('webmail_log_refresh_pairs_total');
    expect(JSON.parse(readFileSync(join(dir, 'state', 'report.json'), 'utf8')).summary.refreshPairs).toBe(1);
  });

  it('runs the follow service until SIGTERM: its checkpoint is saved', async () => {
    mkdirSync(join(dir, 'state'), { recursive: true });
    // The unit's port may be taken on this machine: a free one instead.
    const port = await freePort();
    const args = execStart('webmail-log-follow.service').map((a) => (a.startsWith('127.0.0.1:') ? `127.0.0.1:${port}` : a));
    const running = start(process.execPath, [BIN, ...args]);
    for (let i = 0; i < 200 && !existsSync(join(dir, 'state', 'follow.state')); i++) await sleep(50);
    await running.stop();
    expect(JSON.parse(readFileSync(join(dir, 'state', 'follow.state'), 'utf8')).files[logFile]).toBeDefined();
  });
});
