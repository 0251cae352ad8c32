// The command line as an operator meets it: files, stdin, exit status, errors, colour.

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { POOL_WRITE_PIECE, WRITE_PIECE } from '../../src/report/reporter.js';
import { imap, log, lookup, pair } from '../helpers.js';
import { BIN, cli, ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-cli-'));
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The i-th second from 10:00:00, as a log's clock. */
function second(i: number): string {
  return `${String(10 + Math.floor(i / 3600)).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
}

/** The built binary's stdout (through a pipe its reader leaves unread for 500 ms) and status. */
function readSlowly(args: string[]): Promise<{ text: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const parts: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => child.stdout.on('data', (d: Buffer) => parts.push(d)).resume(), 500);
    child.on('error', reject);
    child.on('close', (status) => resolve({ text: Buffer.concat(parts).toString('utf8'), status }));
  });
}

const CLEAN = log(pair('10:00:07'), pair('10:01:07'));
const WARNS = log(pair('10:00:07'), lookup('10:01:07', 'calendars'));
const ERRS = log(lookup('10:00:07', 'caldav_calendars'), lookup('10:00:07', 'calendars'));

describe('exit status', () => {
  it('is 0 without violations, and with warnings only', async () => {
    expect((await cli(['analyse', file('clean.log', CLEAN)])).status).toBe(0);
    expect((await cli(['analyse', file('warns.log', WARNS)])).status).toBe(0);
  });

  it('is 1 with an error-level violation, or with warnings under --strict', async () => {
    expect((await cli(['analyse', file('errs.log', ERRS)])).status).toBe(1);
    expect((await cli(['analyse', '--strict', file('warns.log', WARNS)])).status).toBe(1);
    expect((await cli(['analyse', '--strict', file('clean.log', CLEAN)])).status).toBe(0);
  });

  it('follows --rule severities', async () => {
    const errs = file('errs.log', ERRS);
    expect((await cli(['analyse', '--rule', 'pair-order=warning', errs])).status).toBe(0);
    expect((await cli(['analyse', '--rule', 'pair-order=off', '--strict', errs])).status).toBe(0);
    const warns = file('warns.log', WARNS);
    expect((await cli(['analyse', '--rule', 'pair-incomplete=error', warns])).status).toBe(1);
  });

  it('follows --pair-window', async () => {
    const late = file('late.log', log(lookup('10:00:07', 'calendars'), lookup('10:00:50', 'caldav_calendars')));
    const narrow = JSON.parse((await cli(['analyse', '--format', 'json', late])).stdout);
    expect(narrow.violations.map((v: { rule: string }) => v.rule)).toEqual(['pair-incomplete', 'pair-incomplete']);
    const wide = await cli(['analyse', '--format', 'json', '--pair-window', '60', late]);
    expect(JSON.parse(wide.stdout).violations.map((v: { rule: string }) => v.rule)).toEqual(['pair-same-second']);
    expect(wide.status).toBe(1);
  });
});

describe('inputs', () => {
  it('reads stdin given as -, named - in violations', async () => {
    const ran = await cli(['analyse', '--format', 'json', '-'], { stdin: ERRS });
    const doc = JSON.parse(ran.stdout);
    expect(doc.violations[0]).toMatchObject({ rule: 'pair-order', file: '-', line: 2 });
    expect(ran.status).toBe(1);
  });

  it('reads stdin when no input is named and stdin is not a terminal', async () => {
    const ran = await cli(['analyse', '--format', 'json'], { stdin: CLEAN });
    expect(JSON.parse(ran.stdout).summary.refreshPairs).toBe(2);
  });

  it('refuses, in one line and with exit 2, to read /dev/null or a closed stdin when no input is named', () => {
    for (const redirect of ['< /dev/null', '<&-']) {
      const ran = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" analyse ${redirect}`], { encoding: 'utf8' });
      expect(ran.status, redirect).toBe(2);
      expect(ran.stdout).toBe('');
      expect(ran.stderr).toBe('webmail-log: no input: name a log file, or pipe one in (webmail-log analyse errors.log)\n');
    }
  });

  it('takes an empty log, named or piped, as clean', async () => {
    expect((await cli(['analyse'], { stdin: '' })).status).toBe(0);
    expect((await cli(['analyse', file('empty.log', '')])).status).toBe(0);
    const named = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" analyse - < /dev/null`], { encoding: 'utf8' });
    expect(named.status).toBe(0);
  });

  it('reads gzip on stdin too', async () => {
    const ran = await cli(['analyse', '--format', 'json', '-'], { stdin: gzipSync(CLEAN) });
    expect(JSON.parse(ran.stdout).summary.refreshPairs).toBe(2);
  });

  it('gives the same violations for a file and for the same bytes on stdin', async () => {
    const text = log(pair('10:00:07'), lookup('10:00:08', 'caldav_calendars'), imap('09:00:00', { id: 'XY' }));
    const fromFile = JSON.parse((await cli(['analyse', '--format', 'json', file('same.log', text)])).stdout);
    const fromPipe = JSON.parse((await cli(['analyse', '--format', 'json', '-'], { stdin: text })).stdout);
    const strip = (d: { violations: { file: string }[] }) => d.violations.map((v) => ({ ...v, file: undefined }));
    expect(strip(fromPipe)).toEqual(strip(fromFile));
    expect(fromPipe.summary).toEqual(fromFile.summary);
  });

  it('reads stdin that starts mid-entry (tail cut it) without a malformed violation; a file keeps the rule', async () => {
    const text = log('                WHERE user_id = \'1\'', "                ORDER BY name) in /x.php on line 578 (POST /cpsess0123456789/x/?_task=mail&_action=refresh)", ...pair('10:00:07'));
    const piped = await cli(['analyse', '--format', 'json', '-'], { stdin: text });
    expect(piped.status).toBe(0);
    expect(piped.stderr).toBe('webmail-log: note: stdin began mid-entry: 2 lines before its first entry skipped\n');
    const doc = JSON.parse(piped.stdout);
    expect(doc.summary).toMatchObject({ lines: 4, entries: 2, malformedEntries: 0, violations: { error: 0, warning: 0 } });
    const fromFile = await cli(['analyse', '--format', 'json', file('cut.log', text)]);
    expect(fromFile.status).toBe(1);
    expect(JSON.parse(fromFile.stdout).violations.map((v: { rule: string; line: number }) => `${v.rule}@${v.line}`)).toEqual(['malformed@1']);
  });

  it('reads several inputs as one stream, a rotation set oldest first', async () => {
    file('rot.log.2.gz', gzipSync(log(lookup('10:00:07', 'calendars'))));
    file('rot.log.1', log(lookup('10:00:07', 'caldav_calendars')));
    file('rot.log', log(imap('10:00:08')));
    const ran = await cli(['analyse', '--format', 'json', 'rot.log', 'rot.log.2.gz', 'rot.log.1'], { cwd: dir });
    const doc = JSON.parse(ran.stdout);
    expect(doc.summary).toMatchObject({ files: 3, lines: 3, refreshPairs: 1 });
    expect(doc.violations).toEqual([]);
  });
});

describe('bad arguments and inputs: one line on stderr, exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['a missing file', ['analyse', 'no-such.log'], /^webmail-log: cannot read no-such\.log: no such file\n$/],
    ['a directory', ['analyse', '.'], /^webmail-log: cannot read \.: is a directory\n$/],
    ['an unknown rule', ['analyse', '--rule', 'pair-orders=off', 'x'], /unknown rule "pair-orders"/],
    ['an unknown severity', ['analyse', '--rule', 'pair-order=fatal', 'x'], /unknown severity "fatal"/],
    ['a rule without severity', ['analyse', '--rule', 'pair-order', 'x'], /expected <id>=<off\|warning\|error>/],
    ['a bad number', ['analyse', '--pair-window', 'soon', 'x'], /--pair-window.*expected a number of seconds/],
    ['a negative number', ['analyse', '--pair-window', '-5', 'x'], /--pair-window/],
    ['an unknown format', ['analyse', '--format', 'xml', 'x'], /^webmail-log: unknown format "xml" \(text, json, ndjson, github, junit, sarif, gitlab, prometheus, html\)\n$/],
    ['an unknown option', ['analyse', '--bogus', 'x'], /unknown option '--bogus'/],
    ['an unknown command', ['analyze-it'], /unknown command 'analyze-it'/],
  ];
  for (const [what, args, message] of cases) {
    it(what, async () => {
      const ran = await cli(args, { cwd: ROOT });
      expect(ran.status).toBe(2);
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(ran.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(ran.stdout).toBe('');
    });
  }

  it('checks every input before reading any', async () => {
    const ran = await cli(['analyse', '--format', 'json', file('ok.log', CLEAN), 'missing.log'], { cwd: dir });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toBe('webmail-log: cannot read missing.log: no such file\n');
  });

  it('reports what was read of a corrupt gzip input, then names it', async () => {
    const cut = gzipSync(log(...Array.from({ length: 200 }, (_, i) => imap(`10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`))));
    const path = file('cut.log.gz', cut.subarray(0, cut.length - 20));
    const ran = await cli(['analyse', '--format', 'json', path]);
    expect(ran.status).toBe(2);
    expect(JSON.parse(ran.stdout).summary.entries).toBeGreaterThan(0);
    expect(ran.stderr).toMatch(/^webmail-log: cannot read .*cut\.log\.gz: corrupt gzip data/);
  });

  it('prints help and exits 2 when run with nothing', async () => {
    const ran = await cli([]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/Usage: webmail-log/);
  });
});

describe('other commands', () => {
  it('lists the rules with their default severities', async () => {
    const ran = await cli(['rules']);
    expect(ran.status).toBe(0);
    // A wrapped meaning goes on indented lines: the rows are those that start with a rule.
    const rows = ran.stdout.trim().split('\n').filter((l) => !l.startsWith(' ')).map((l) => l.split(/\s{2,}/).slice(0, 2));
    expect(rows).toEqual([
      ['pair-order', 'error'],
      ['pair-same-second', 'error'],
      ['pair-incomplete', 'warning'],
      ['chronological', 'error'],
      ['request-id-format', 'warning'],
      ['session-consistency', 'warning'],
      ['malformed', 'error'],
    ]);
  });

  it('shows help with examples on every command, and knows the alias analyze', async () => {
    for (const args of [['--help'], ['analyse', '--help'], ['rules', '--help'], ['analyze', '--help']]) {
      const ran = await cli(args);
      expect(ran.status, args.join(' ')).toBe(0);
      expect(ran.stdout).toMatch(/Examples?:/);
    }
    expect((await cli(['analyze', file('clean.log', CLEAN)])).status).toBe(0);
  });
});

describe('text report', () => {
  it('shows the overview, request ids, signatures and violations by rule', async () => {
    const ran = await cli(['analyse', file('errs.log', ERRS)]);
    expect(ran.stdout).toMatch(/Overview/);
    expect(ran.stdout).toMatch(/entries\s+2: 2 DB errors, 0 other, 0 malformed/);
    expect(ran.stdout).toMatch(/Request ids[\s\S]*3fa9c2d1[\s\S]*cpsess0123456789/);
    expect(ran.stdout).toMatch(/no such table: caldav_calendars/);
    expect(ran.stdout).toMatch(/pair-order \(1\)/);
    // The line wraps at the terminal's width wherever the temporary directory's length puts it.
    expect(ran.stdout.replace(/\s+/g, ' ')).toMatch(/errs\.log:2 remote-sync lookup \(line 1\) came before the local lookup/);
  });

  it('lists the first 10 violations of a rule, and all with --all', async () => {
    const many = file('many.log', log(...Array.from({ length: 12 }, (_, i) => lookup(`10:${String(i).padStart(2, '0')}:00`, 'calendars'))));
    const some = await cli(['analyse', many]);
    expect(some.stdout.match(/many\.log:\d+/g)).toHaveLength(10);
    expect(some.stdout).toMatch(/… 2 more \(--all lists them\)/);
    const all = await cli(['analyse', '--all', many]);
    expect(all.stdout.match(/many\.log:\d+/g)).toHaveLength(12);
  });

  it('never prints control characters from the log raw', async () => {
    const evil = file('evil.log', log(imap('10:00:00', { id: '\x1b[31mX' }), '[21-Nov-2026 10:00:01 +0100]: <3fa9c2d1> DB Error: [1] \x1b]0;pwned\x07 (SQL Query: q) in f on line 1 (POST /x)'));
    const ran = await cli(['analyse', '--all', evil]);
    expect(ran.stdout).not.toMatch(/\x1b|\x07/);
    expect(ran.stdout).toContain('\\x1b[31mX');
    expect(ran.stdout).toContain('\\x1b]0;pwned\\x07');
  });

  it('is coloured only when asked or on a terminal; NO_COLOR and --no-color turn it off', async () => {
    const errs = file('errs.log', ERRS);
    expect((await cli(['analyse', errs])).stdout).not.toMatch(/\x1b\[/);
    expect((await cli(['analyse', '--color', errs])).stdout).toMatch(/\x1b\[/);
    expect((await cli(['analyse', errs], { env: { FORCE_COLOR: '1' } })).stdout).toMatch(/\x1b\[/);
    expect((await cli(['analyse', '--no-color', errs], { env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(/\x1b\[/);
    expect((await cli(['analyse', '--color', errs], { env: { NO_COLOR: '1' } })).stdout).toMatch(/\x1b\[/);
  });
});

describe('JSON report', () => {
  it('is one document on stdout and nothing else, even with violations', async () => {
    const ran = await cli(['analyse', '--format', 'json', file('errs.log', ERRS)]);
    expect(ran.stderr).toBe('');
    const doc = JSON.parse(ran.stdout);
    // The SPEC's keys, and the ones webmail-log adds (SPEC §5: keys may be added).
    expect(Object.keys(doc)).toEqual(['schemaVersion', 'host', 'summary', 'requestIds', 'signatures', 'timeline', 'notes', 'notesTotal', 'diagnosis', 'violations']);
    expect(doc.schemaVersion).toBe(1);
    expect(doc.violations[0]).toEqual({
      rule: 'pair-order',
      severity: 'error',
      file: join(dir, 'errs.log'),
      line: 2,
      requestId: '3fa9c2d1',
      message: 'remote-sync lookup (line 1) came before the local lookup',
    });
  });

  it('is not coloured even when colour is forced', async () => {
    const ran = await cli(['analyse', '--format', 'json', '--color', file('errs.log', ERRS)], { env: { FORCE_COLOR: '3' } });
    expect(ran.stdout).not.toMatch(/\x1b/);
  });
  it('lists thousands of request ids whole, to a file and to a pipe read slowly', async () => {
    // The rows are written from two buffers in turn, lent piece after piece: into a pipe
    // whose reader lags, a piece must leave before the one after the next is made over it.
    const ids = Array.from({ length: 6000 }, (_, i) => (0x10000000 + i).toString(16));
    const many = file('many-ids.log', log(...ids.map((id, i) => pair(second(i), { id, segment: `cpsess${1_000_000_000 + i}` }))));
    const saved = join(dir, 'many-ids.json');
    expect((await cli(['analyse', '--format', `json=${saved}`, many])).status).toBe(0);
    const text = readFileSync(saved, 'utf8');
    expect(await readSlowly(['analyse', '--format', 'json', many])).toEqual({ text, status: 0 });
    // Node gives a child a socket for its stdout, a shell a pipe: written in writes of
    // their own sizes (see the next test), the same bytes.
    const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" analyse --format json "${many}" | cat`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(piped.stdout).toBe(text);
    const doc = JSON.parse(text);
    expect(doc.requestIds.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(doc.requestIds[5999]).toMatchObject({ sessionSegments: ['cpsess1000005999'], entries: 2, refreshPairs: 1 });
  });
  it('leaves nothing of a long NDJSON stream behind when it exits, its reader lagging', async () => {
    // NDJSON's violations go out by stdout's stream as they are decided, which into a pipe
    // writes later than it is asked to (Node: asynchronous on POSIX). The program ends by
    // process.exit, which drops what a stream still holds: it waits for the report's
    // writes, and then for stdout and stderr to hand on the rest. Every line arrives.
    const ids = Array.from({ length: 3000 }, (_, i) => (0x20000000 + i).toString(16));
    const reversed = (i: number) => [lookup(second(i), 'caldav_calendars', { id: ids[i] }), lookup(second(i), 'calendars', { id: ids[i] })];
    const many = file('many-violations.log', log(...ids.map((_, i) => reversed(i))));
    const saved = join(dir, 'many-violations.ndjson');
    expect((await cli(['analyse', '--format', `ndjson=${saved}`, many])).status).toBe(1);
    const text = readFileSync(saved, 'utf8');
    expect(text.length).toBeGreaterThan(256 << 10);
    expect(await readSlowly(['analyse', '--format', 'ndjson', many])).toEqual({ text, status: 1 });
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.rule === 'pair-order')).toHaveLength(3000);
    expect(lines.at(-1)).toMatchObject({ type: 'summary' });
  });
  it('writes into a socket or a pipe in larger writes than into a file', () => {
    // What processIo gives for stdout of each kind, asked of the built program's module in
    // a process of its own: a socket (as Node starts a child), a shell's pipe, a file.
    const ask = `import(${JSON.stringify(join(ROOT, 'dist/io.js'))}).then((m) => process.stderr.write(String(m.processIo().outPieceBytes)))`;
    const node = (stdout: 'pipe' | number) => spawnSync(process.execPath, ['--input-type=module', '-e', ask], { stdio: ['ignore', stdout, 'pipe'], encoding: 'utf8' }).stderr;
    expect(node('pipe')).toBe(String(POOL_WRITE_PIECE));
    const out = openSync(join(dir, 'piece-size.out'), 'w');
    expect(node(out)).toBe(String(WRITE_PIECE));
    closeSync(out);
    const viaPipe = spawnSync('sh', ['-c', `"${process.execPath}" --input-type=module -e '${ask}' | cat`], { encoding: 'utf8' });
    expect(viaPipe.stderr).toBe(String(POOL_WRITE_PIECE));
  });
});

describe('awkward inputs', () => {
  it('reads a named pipe as a live stream, opened only when read', async () => {
    const { execFileSync } = await import('node:child_process');
    const { createWriteStream } = await import('node:fs');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const ran = cli(['analyse', '--format', 'json', fifo]);
    const writer = createWriteStream(fifo);
    writer.end(ERRS);
    const { status, stdout, stderr } = await ran;
    expect(stderr).toBe('');
    expect(JSON.parse(stdout).violations[0]).toMatchObject({ rule: 'pair-order', file: fifo, line: 2 });
    expect(status).toBe(1);
  });

  it('notes a binary file on stderr and still accounts for every line', async () => {
    const bin = file('program.bin', Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]), Buffer.from('\nsome\ntext\n')]));
    const ran = await cli(['analyse', '--format', 'json', bin]);
    expect(ran.stderr).toBe(`webmail-log: note: ${bin} looks like a binary file (it holds NUL bytes); reading it as a log all the same\n`);
    expect(JSON.parse(ran.stdout).summary).toMatchObject({ lines: 3, entries: 0, violations: { error: 1, warning: 0 } });
    expect(ran.status).toBe(1);
  });

  it('takes a file of one blank line and an empty file as clean', async () => {
    for (const [name, text, lines] of [['blank.log', '\n', 1], ['empty.log', '', 0]] as const) {
      const ran = await cli(['analyse', '--format', 'json', file(name, text)]);
      expect(ran.status).toBe(0);
      expect(JSON.parse(ran.stdout).summary).toMatchObject({ lines, entries: 0, violations: { error: 0, warning: 0 } });
    }
  });
});
