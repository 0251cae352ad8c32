// --jobs: the same JSON, byte for byte, whatever the number of threads and whether the
// log comes as a file or on stdin. The log is built so that chunk boundaries (64 KiB
// apart for a file this size) fall inside multi-line entries, pairs, CRLF line ends and
// long entries.

import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { check, imap, log, lookup, pair } from '../helpers.js';
import { BIN, cli } from './run.js';

function stamp(i: number): string {
  const s = 36000 + Math.floor(i / 2);
  return `${String(Math.floor(s / 3600) % 24).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

function buildLog(): string {
  // No text before the first entry: stdin would skip it (SPEC §1) where a file reports it.
  const parts: string[] = [''];
  for (let i = 0; parts.join('\n').length < 700_000 && i < 100_000; i++) {
    const t = stamp(i);
    const id = ['aaaaaaaa', 'bbbbbbbb', 'NOT-HEX1'][i % 3];
    const segment = i % 97 === 0 ? 'cpsess9999999999' : `cpsess${String(1000000000 + (i % 3))}`;
    switch (i % 11) {
      case 0:
        parts.push(lookup(t, 'caldav_calendars', { id, segment }), lookup(t, 'calendars', { id, segment }));
        break;
      case 1:
        parts.push(`[21-Nov-2026 ${t} +0100]: <${id}> DB Error: [1] no such table: caldav_calendars (SQL Query: SELECT *, calendar_id AS id`, '                FROM caldav_calendars', "                WHERE user_id='1'", `                ORDER BY name) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /${segment}/3rdparty/roundcube/index.php?_task=mail&_action=refresh)`);
        break;
      case 2:
        parts.push(imap(t, { id }) + '\r');
        break;
      case 3:
        parts.push(`[21-Nov-2026 ${t} +0100]: <${id}> PHP Error: ${'long '.repeat(i % 5 === 0 ? 4000 : 10)} in x on line 1 (GET /${segment}/x)`);
        break;
      case 4:
        parts.push(lookup(t, 'calendars', { id }));
        break;
      case 5:
        parts.push('[31-Apr-2026 10:00:00 +0100]: bad day', '#0 {main}');
        break;
      case 6:
        parts.push(imap(stamp(i - 40), { id }));
        break;
      default:
        parts.push(...pair(t, { id, segment }));
    }
  }
  return parts.join('\n') + '\nno newline at the end';
}

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-jobs-'));
const text = buildLog();
writeFileSync(join(dir, 'big.log'), text);

describe('--jobs', () => {
  it('gives byte-identical JSON for 1 to 4 threads, and for stdin', async () => {
    const outputs: string[] = [];
    for (const jobs of ['1', '2', '3', '4']) {
      const ran = await cli(['analyse', '--format', 'json', '--jobs', jobs, 'big.log'], { cwd: dir });
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(1);
      outputs.push(ran.stdout);
    }
    for (const out of outputs.slice(1)) expect(out).toBe(outputs[0]);
    const piped = await cli(['analyse', '--format', 'json', '-'], { cwd: dir, stdin: readFileSync(join(dir, 'big.log')) });
    expect(piped.stdout.replaceAll('"file": "-"', '"file": "big.log"')).toBe(outputs[0]);
  });

  it('reads stdin redirected from a file with several threads, cut mid-entry, as one thread reads it', async () => {
    // Starts inside an entry, as `tail -n` leaves it: those lines are counted, not malformed.
    const cut = text.slice(text.indexOf('\n                FROM caldav_calendars') + 1);
    writeFileSync(join(dir, 'cut.log'), cut);
    const run = (jobs: string, debug: boolean) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const fd = openSync(join(dir, 'cut.log'), 'r');
        const env = { ...process.env, NODE_DEBUG: debug ? 'worker' : '' };
        const child = spawn(process.execPath, [BIN, 'analyse', '--format', 'json', '--jobs', jobs, '-'], { cwd: dir, env, stdio: [fd, 'pipe', 'pipe'] });
        closeSync(fd);
        let stdout = '';
        let stderr = '';
        child.stdout!.setEncoding('utf8').on('data', (d) => (stdout += d));
        child.stderr!.setEncoding('utf8').on('data', (d) => (stderr += d));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const one = await run('1', false);
    const three = await run('3', true);
    expect(one.stderr).toMatch(/^webmail-log: note: stdin began mid-entry: 3 lines before its first entry skipped\n$/);
    expect(three.stderr).toContain('webmail-log: note: stdin began mid-entry: 3 lines before its first entry skipped\n');
    // Node's own debug log (NODE_DEBUG=worker) says workers were made: the parallel reader read it.
    expect(three.stderr).toMatch(/^WORKER \d+: .* create new worker/m);
    expect(three.stdout).toBe(one.stdout);
    expect(JSON.parse(one.stdout).violations.filter((v: { rule: string }) => v.rule === 'malformed').map((v: { line: number }) => v.line)).not.toContain(1);
  });

  it('agrees with the pipeline read in one piece', async () => {
    const ran = await cli(['analyse', '--format', 'json', '--jobs', '3', 'big.log'], { cwd: dir });
    const doc = JSON.parse(ran.stdout);
    const direct = check(text);
    expect(doc.summary.lines).toBe(direct.summary.lines);
    expect(doc.summary.entries).toBe(direct.summary.entries);
    expect(doc.violations.map((v: { rule: string; line: number }) => `${v.rule}@${v.line}`)).toEqual(direct.violations.map((f) => `${f.rule}@${f.line}`));
    expect(doc.summary.lines).toBe(text.split('\n').length);
  });

  it('reads a rotation set with a large gzip member the same with any number of threads', async () => {
    writeFileSync(join(dir, 'rot.log.1.gz'), gzipSync(text));
    writeFileSync(join(dir, 'rot.log'), text);
    const one = await cli(['analyse', '--format', 'json', '--jobs', '1', 'rot.log', 'rot.log.1.gz'], { cwd: dir });
    const two = await cli(['analyse', '--format', 'json', '--jobs', '2', 'rot.log', 'rot.log.1.gz'], { cwd: dir });
    expect(two.stdout).toBe(one.stdout);
    expect(JSON.parse(one.stdout).summary.files).toBe(2);
  });

  it('reads a rotation set of plain files with several threads as one thread reads it', async () => {
    // Each file is cut into chunks and one set of workers serves them all (their tables
    // carried from file to file are held by test/parallel/plan.test.ts, where the workers
    // surely take chunks: here they may start after the last).
    const lines = text.split('\n');
    const third = Math.floor(lines.length / 3);
    // Cut at entry starts, as rotation does.
    const cut = (from: number) => {
      let i = from;
      while (!lines[i].startsWith('[')) i++;
      return i;
    };
    const [a, b] = [cut(third), cut(2 * third)];
    writeFileSync(join(dir, 'set.log.2'), lines.slice(0, a).join('\n') + '\n');
    writeFileSync(join(dir, 'set.log.1'), lines.slice(a, b).join('\n') + '\n');
    writeFileSync(join(dir, 'set.log'), lines.slice(b).join('\n'));
    const args = (jobs: string) => ['analyse', '--format', 'json', '--jobs', jobs, 'set.log', 'set.log.1', 'set.log.2'];
    const one = await cli(args('1'), { cwd: dir });
    expect(JSON.parse(one.stdout).summary.files).toBe(3);
    expect((await cli(args('2'), { cwd: dir })).stdout).toBe(one.stdout);
    expect((await cli(args('3'), { cwd: dir })).stdout).toBe(one.stdout);
  });

  it('reads a gzipped member whole in a worker as one thread reads it: text before its first entry, a binary look, a cut', async () => {
    // With threads, a gzipped file is read by a worker from start to end while this
    // thread analyses (src/parallel/whole.ts); its findings, notes and exit are one thread's.
    const same = async (files: string[]) => {
      const one = await cli(['analyse', '--format', 'json', '--jobs', '1', ...files], { cwd: dir });
      const two = await cli(['analyse', '--format', 'json', '--jobs', '2', ...files], { cwd: dir });
      expect({ status: two.status, stdout: two.stdout, stderr: two.stderr }).toEqual({ status: one.status, stdout: one.stdout, stderr: one.stderr });
      return one;
    };
    const orphans = 'PHP Warning:  a line before the first entry\n#0 {main}\n\n' + text;
    writeFileSync(join(dir, 'whole.log.2.gz'), gzipSync(orphans));
    writeFileSync(join(dir, 'whole.log.1.gz'), gzipSync(text));
    writeFileSync(join(dir, 'whole.log'), text);
    const set = await same(['whole.log', 'whole.log.1.gz', 'whole.log.2.gz']);
    const doc = JSON.parse(set.stdout);
    expect(doc.summary.files).toBe(3);
    expect(doc.violations.filter((v: { rule: string; file: string; line: number }) => v.rule === 'malformed' && v.file === 'whole.log.2.gz' && v.line === 1)).toHaveLength(1);
    // NUL bytes in the first block: a note, the same from the worker.
    writeFileSync(join(dir, 'nul.log.gz'), gzipSync(Buffer.concat([Buffer.from('\0\0\n'), Buffer.from(text)])));
    expect((await same(['nul.log.gz'])).stderr).toMatch(/nul\.log\.gz looks like a binary file/);
    // Cut short: what was read is counted and checked, then the file is named.
    const packed = gzipSync(text);
    writeFileSync(join(dir, 'cut.log.gz'), packed.subarray(0, Math.floor(packed.length * 0.6)));
    const cut = await same(['whole.log.1.gz', 'cut.log.gz']);
    expect(cut.status).toBe(2);
    expect(JSON.parse(cut.stdout).summary.entries).toBeGreaterThan(JSON.parse((await cli(['analyse', '--format', 'json', 'whole.log.1.gz'], { cwd: dir })).stdout).summary.entries);
    expect(cut.stderr).toMatch(/cannot read cut\.log\.gz: corrupt gzip data/);
  });

  it('gives the same JSON where WebAssembly cannot be had: node --jitless, or an address-space limit that forbids its memory', async () => {
    // A DB error's body is compared in WebAssembly where it can be (src/parse/byte-space.ts), else by Buffer#compare.
    const run = promisify(execFile);
    // A gzipped member too: its entries, cut by a worker, are read here (src/parallel/whole.ts).
    writeFileSync(join(dir, 'big.log.1.gz'), gzipSync(text));
    const args = [BIN, 'analyse', '--format', 'json', '--jobs', '2', 'big.log', 'big.log.1.gz'];
    const fast = await cli(args.slice(1), { cwd: dir });
    const jitless = await run(process.execPath, ['--jitless', ...args], { cwd: dir, maxBuffer: 1 << 26 }).catch((e) => e);
    expect(jitless.stdout).toBe(fast.stdout);
    // 4 GB of address space: Node and its worker start, a WebAssembly memory (which
    // reserves about 10 GB) cannot be had. `ulimit -v` on a shared host does the same.
    const limited = (nodeArgs: string[]) => run('bash', ['-c', 'ulimit -v 4000000 && exec "$0" "$@"', process.execPath, ...nodeArgs], { cwd: dir, maxBuffer: 1 << 26 }).catch((e) => e);
    const probe = await limited(['-e', 'new WebAssembly.Memory({ initial: 1 })']);
    expect(probe.stderr).toContain('could not allocate memory');
    const slow = await limited(args);
    expect(slow.stderr).toBe('');
    expect(slow.stdout).toBe(fast.stdout);
  });

  it('refuses a number of threads that is not a whole number from 1', async () => {
    for (const bad of ['0', '-1', '1.5', 'all']) {
      const ran = await cli(['analyse', '--jobs', bad, 'big.log'], { cwd: dir });
      expect(ran.status, bad).toBe(2);
      expect(ran.stderr).toMatch(/--jobs/);
    }
  });
});
