// `npm run bench`: generates large logs with known violations (cached outside the repo),
// times webmail-log on them against grep and wc (and lnav when installed), reports MB/s
// and peak RSS, and checks the violations against the generator's ground truth.
//
//   npm run bench                        the three profiles at 1 GB, and busy's and short's
//                                        logs as rotation sets with gzipped members
//   npm run bench -- --size 200          at 200 MB
//   npm run bench -- --profiles busy     one profile
//   npm run bench -- --runs 5            the median of 5 runs of each tool (3 by default)
//   WEBMAIL_LOG_BENCH_DIR=/data npm run bench

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultJobs } from '../src/parallel/read.js';
import { generateLog, PROFILES, type GroundTruth, type Profile } from './generate.js';
import { archiveOf } from './archive.js';
import { hostileBench } from './hostile.js';
import { idsOnStream } from './ids.js';
import { spawnMeasured } from './measured.js';
import { stealWatch } from './steal.js';
import { markdownTable } from './table.js';

/** Bump when the generator's output changes, so cached logs are made anew. */
const GENERATOR_VERSION = 3;
const MB = 1e6;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

interface Row {
  tool: string;
  seconds: number;
  rssMiB: number | null;
  note: string;
  /** CPU seconds the host gave other guests while it ran (bench/steal.ts), or null where unknown. */
  stolen: number | null;
}

function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function logFor(sizeMB: number, profile: Profile): { path: string; truth: GroundTruth } {
  const dir = process.env.WEBMAIL_LOG_BENCH_DIR ?? join(tmpdir(), 'webmail-log-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `errors-${profile.name}-${sizeMB}MB-v${GENERATOR_VERSION}.log`);
  const truthPath = `${path}.truth.json`;
  if (existsSync(path) && existsSync(truthPath)) return { path, truth: JSON.parse(readFileSync(truthPath, 'utf8')) };
  process.stderr.write(`generating ${path} …\n`);
  const truth = generateLog(path, sizeMB * MB, profile);
  writeFileSync(truthPath, JSON.stringify(truth, null, 2));
  return { path, truth };
}

/** Runs an external command under /usr/bin/time for its peak RSS. */
function external(tool: string, cmd: string, args: string[]): Row {
  const stolen = stealWatch();
  const started = process.hrtime.bigint();
  const r = TIME
    ? spawnSync(TIME, ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const kib = TIME ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { tool, seconds, rssMiB: Number.isFinite(kib) ? kib / 1024 : null, note: r.stdout.trim().split('\n')[0] ?? '', stolen: stolen() };
}

/** Runs webmail-log through measure.js; returns the row and the JSON document's text. */
async function ours(tool: string, args: string[], stdinPath: string | null): Promise<{ row: Row; text: string }> {
  const { row, stdout } = await measure(tool, ['--format', 'json', ...args], stdinPath);
  return { row, text: stdout };
}

/**
 * Times the whole process, from its start to its exit, as `time webmail-log …` would and
 * as grep and lnav are timed: Node's start and the loading of the program (0.1 s bundled,
 * 0.2 s before) are part of what an operator waits for. Its stdout is a pipe this process
 * reads as it comes, and the clock stops when the process exits: not after this process
 * has made one string of it (spawnSync did so before returning: about 0.1 s more for the
 * 43 MB of *short*, counted against it up to the twenty-eighth run). Its peak RSS comes
 * from measure.js.
 */
async function measure(tool: string, args: string[], stdinPath: string | null): Promise<{ row: Row; stdout: string }> {
  const stdin = stdinPath ? openSync(stdinPath, 'r') : 'ignore';
  try {
    const stolen = stealWatch();
    const started = process.hrtime.bigint();
    const child = spawnMeasured(['analyse', ...args], [stdin, 'pipe', 'pipe']);
    const out: Buffer[] = [];
    const stats: Buffer[] = [];
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.resume();
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => stats.push(d));
    let seconds = NaN;
    child.on('exit', () => (seconds = Number(process.hrtime.bigint() - started) / 1e9));
    // 'close' comes after 'exit', once every pipe is read to its end.
    const status = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve(code));
    });
    const { maxRssKiB } = JSON.parse(Buffer.concat(stats).toString().trim()) as { maxRssKiB: number };
    return { row: { tool, seconds, rssMiB: maxRssKiB / 1024, note: `exit ${status}`, stolen: stolen() }, stdout: Buffer.concat(out).toString('utf8') };
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
  }
}

function checkTruth(doc: any, truth: GroundTruth): string[] {
  const problems: string[] = [];
  const s = doc.summary;
  for (const key of ['lines', 'entries', 'dbErrors', 'otherEntries', 'malformedEntries', 'refreshPairs', 'requestIds'] as const) {
    if (s[key] !== truth[key]) problems.push(`${key}: ${s[key]}, expected ${truth[key]}`);
  }
  const byRule: Record<string, number> = {};
  for (const v of doc.violations) byRule[v.rule] = (byRule[v.rule] ?? 0) + 1;
  for (const [rule, count] of Object.entries(truth.violations)) {
    if ((byRule[rule] ?? 0) !== count) problems.push(`${rule}: ${byRule[rule] ?? 0}, expected ${count}`);
  }
  return problems;
}

function table(bytes: number, rows: Row[]): string {
  const grep = rows.find((r) => r.tool.startsWith('grep'));
  const lnav = rows.find((r) => r.tool.startsWith('lnav'));
  const head = ['tool', 'seconds', 'MB/s', '× grep', '× lnav', 'peak RSS MiB', 'host steal s', 'note'];
  const body = rows.map((r) => [
    r.tool,
    r.seconds.toFixed(2),
    (bytes / MB / r.seconds).toFixed(0),
    grep ? (r.seconds / grep.seconds).toFixed(1) : '-',
    lnav ? (r.seconds / lnav.seconds).toFixed(2) : '-',
    r.rssMiB === null ? '-' : r.rssMiB.toFixed(0),
    r.stolen === null ? '-' : r.stolen.toFixed(2),
    r.note,
  ]);
  return markdownTable(head, body);
}

/** Teaches lnav this log's format (once), so that its load parses entries as ours does. */
function lnavFormat(): boolean {
  if (spawnSync('sh', ['-c', 'command -v lnav'], { stdio: 'ignore' }).status !== 0) return false;
  const dir = join(process.env.HOME ?? tmpdir(), '.lnav', 'formats', 'installed');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'roundcube_errors_log.json'),
    JSON.stringify({
      $schema: 'https://lnav.org/schemas/format-v1.schema.json',
      roundcube_errors_log: {
        title: 'Roundcube errors.log',
        description: 'The error log of Roundcube webmail',
        regex: {
          std: { pattern: '^\\[(?<timestamp>\\d{2}-\\w{3}-\\d{4} \\d{2}:\\d{2}:\\d{2} [+-]\\d{4})\\]: (?:<(?<request_id>[^> ]+)> )?(?<body>.*)$' },
        },
        'timestamp-format': ['%d-%b-%Y %H:%M:%S %z'],
        level: { error: 'Error' },
        value: { request_id: { kind: 'string', identifier: true }, body: { kind: 'string' } },
        sample: [{ line: "[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1> DB Error: [1] no such table: calendars (SQL Query: SELECT 1) in /x.php on line 578 (POST /cpsess0123456789/x/index.php?_task=mail&_action=refresh)" }],
      },
    }),
  );
  return true;
}

/** The median of some numbers. */
function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/**
 * The median of a tool's runs (its peak RSS: the largest; the host's steal: the median).
 * A shared VM's speed moves ±40 % between runs and within one: one run each made the
 * verdict a draw.
 */
function median(rows: Row[]): Row {
  const seconds = middle(rows.map((r) => r.seconds));
  const rss = rows.every((r) => r.rssMiB === null) ? null : Math.max(...rows.map((r) => r.rssMiB ?? 0));
  const stolen = rows.some((r) => r.stolen === null) ? null : middle(rows.map((r) => r.stolen as number));
  return { tool: rows[0].tool, seconds, rssMiB: rss, note: rows[0].note, stolen };
}

const sizeMB = Number(argValue('--size', '1000'));
const runs = Math.max(1, Number(argValue('--runs', '3')));
const profiles = argValue('--profiles', 'busy,short,few').split(',').map((name) => {
  const p = PROFILES[name];
  if (!p) throw new Error(`no profile "${name}" (${Object.keys(PROFILES).join(', ')})`);
  return p;
});
const hasLnav = lnavFormat();
let failed = false;
interface Figures { file: number; one: number; stdin: number; rss: number; lnavRatio: number | null; seconds: number }
const figures: Record<string, Figures> = {};
/** Each profile's log, for the rotation sets made of them after. */
const logs: Record<string, { path: string; truth: GroundTruth }> = {};
process.stdout.write(`webmail-log ${sizeMB} MB per profile, on ${availableParallelism()} cores of ${cpus()[0]?.model.trim() ?? 'an unknown processor'} (${defaultJobs()} jobs by default), Node ${process.version}, warm page cache; each process timed from its start to its exit; host steal: CPU seconds the hypervisor gave other guests during the run, over all cores\n\n`);
/** What a profile's rounds gather: each tool's timed runs, and the JSON of its first round. */
interface Timing {
  profile: Profile;
  path: string;
  truth: GroundTruth;
  timed: Row[][];
  /** The JSON texts of the first round: --jobs 1, the default jobs, stdin. */
  texts: string[];
  rerunsDiffer: boolean;
}
const timings: Timing[] = profiles.map((profile) => {
  const { path, truth } = logFor(sizeMB, profile);
  logs[profile.name] = { path, truth };
  return { profile, path, truth, timed: [], texts: [], rerunsDiffer: false };
});
// Round after round, each profile in turn and each tool once in it: a slow spell of the
// machine falls on every tool and every profile alike. The profiles one after another
// (each its three runs) had put *short* and *busy* minutes apart, and their ratio moved
// from 0.95 to 1.42 over five runs of nearly the same code (46-50, docs/speed.md).
for (let round = 0; round < runs; round++) {
  for (const t of timings) {
    const { path } = t;
    spawnSync('cat', [path], { stdio: ['ignore', 'ignore', 'ignore'] }); // warm the page cache
    const rows: Row[] = [];
    rows.push(external("grep -c 'DB Error'", 'grep', ['-c', 'DB Error', path]));
    if (hasLnav) rows.push(external('lnav (headless load)', 'lnav', ['-n', '-c', ';SELECT count(*) FROM roundcube_errors_log', path]));
    const ourRuns = [
      await ours('webmail-log --jobs 1', ['--jobs', '1', path], null),
      await ours(`webmail-log (default: ${defaultJobs()} jobs)`, [path], null),
      await ours('webmail-log stdin', ['-'], path),
    ];
    // The first round's documents are checked against the truth; every later one must be
    // the same text (and is then dropped: 43 MB each for short).
    if (round === 0) t.texts = ourRuns.map((r) => r.text);
    else if (ourRuns.some((r, k) => r.text !== t.texts[k])) t.rerunsDiffer = true;
    rows.push(...ourRuns.map((r) => r.row));
    rows.forEach((r, k) => (t.timed[k] ??= []).push(r));
  }
}
for (const { profile, path, truth, timed, texts, rerunsDiffer } of timings) {
  const rows = timed.map(median);
  const [one, file, stdin] = rows.slice(-3);
  const [oneText, fileText, stdinText] = texts;
  process.stdout.write(`Profile ${profile.name}: ${profile.description}; ${truth.requestIds.toLocaleString('en-US')} request ids\n`);
  process.stdout.write(`  the median of ${runs} run${runs === 1 ? '' : 's'} of each, interleaved with each other and with the other profiles'; peak RSS the largest\n`);
  process.stdout.write(table(truth.bytes, rows) + '\n');
  const same = !rerunsDiffer && oneText === fileText && stdinText.replaceAll('"file": "-"', `"file": ${JSON.stringify(path)}`) === oneText;
  if (!same) failed = true;
  process.stdout.write(`  JSON for --jobs 1, the default jobs and stdin, in every run: ${same ? 'byte-identical' : 'DIFFERENT'}\n`);
  for (const [what, text] of [['--jobs 1', oneText], ['default jobs', fileText], ['stdin', stdinText]] as const) {
    const problems = checkTruth(JSON.parse(text), truth);
    if (problems.length > 0) {
      failed = true;
      process.stdout.write(`  ground truth (${what}): MISMATCH: ${problems.join('; ')}\n`);
    }
  }
  if (!failed) process.stdout.write(`  ground truth: all ${Object.values(truth.violations).reduce((a, b) => a + b, 0)} planted violations and every count found, in all three runs\n`);
  const lnav = rows.find((r) => r.tool.startsWith('lnav'));
  figures[profile.name] = {
    file: truth.bytes / MB / file.seconds,
    one: truth.bytes / MB / one.seconds,
    stdin: truth.bytes / MB / stdin.seconds,
    rss: Math.max(one.rssMiB ?? 0, file.rssMiB ?? 0, stdin.rssMiB ?? 0),
    lnavRatio: lnav ? file.seconds / lnav.seconds : null,
    seconds: file.seconds,
  };
  process.stdout.write('\n');
}

// Not a target of the issue: what an operator runs on a month of a server's log, its
// rotation set with gzipped members (bench/archive.ts), by one thread and by default.
for (const name of ['busy', 'short'].filter((n) => logs[n])) {
  const { path, truth } = logs[name];
  const members = await archiveOf(path, truth.bytes);
  spawnSync('cat', members, { stdio: ['ignore', 'ignore', 'ignore'] });
  const timed: Row[][] = [[], []];
  let texts: string[] = [];
  let differ = false;
  for (let round = 0; round < runs; round++) {
    const pair = [await ours('webmail-log --jobs 1', ['--jobs', '1', ...members], null), await ours(`webmail-log (default: ${defaultJobs()} jobs)`, members, null)];
    if (round === 0) texts = pair.map((r) => r.text);
    else if (pair.some((r, k) => r.text !== texts[k])) differ = true;
    pair.forEach((r, k) => timed[k].push(r.row));
  }
  const rows = timed.map(median);
  process.stdout.write(`Rotation set of ${name}: the same log in ten members, the newest two plain, eight gzipped (not a target)\n`);
  process.stdout.write(table(truth.bytes, rows) + '\n');
  const same = !differ && texts[0] === texts[1];
  const problems = checkTruth(JSON.parse(texts[0]), truth);
  if (!same || problems.length > 0) failed = true;
  process.stdout.write(`  JSON for --jobs 1 and the default jobs: ${same ? 'byte-identical' : 'DIFFERENT'}; ground truth: ${problems.length === 0 ? 'every planted violation and count found' : `MISMATCH: ${problems.join('; ')}`}\n\n`);
}

// The targets of the speed issue, profile by profile.
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
/** `value` with `digits` decimals, or more where that many would print the bound itself (0.90 for 0.902 against 0.9). */
const figure = (value: number, digits: number, bound: number) => {
  let text = value.toFixed(digits);
  while (Number(text) === bound && value !== bound && digits < 6) text = value.toFixed(++digits);
  return text;
};
const lines: string[] = [];
for (const [name, f] of Object.entries(figures)) {
  const rssCap = name === 'short' ? 192 : 128;
  const checks: [string, boolean][] = [
    [`default jobs ${figure(f.file, 0, 400)} MB/s >= 400${f.file >= 600 ? ' (stretch 600 too)' : ''}`, f.file >= 400],
    [`--jobs 1 ${figure(f.one, 0, 250)} MB/s >= 250`, f.one >= 250],
    [`stdin ${figure(f.stdin, 0, 200)} MB/s >= 200`, f.stdin >= 200],
    [`peak RSS ${figure(f.rss, 0, rssCap)} MiB <= ${rssCap}`, f.rss <= rssCap],
  ];
  if (f.lnavRatio !== null) checks.push([`time / lnav's ${figure(f.lnavRatio, 2, 0.9)} <= 0.9`, f.lnavRatio <= 0.9]);
  for (const [text, ok] of checks) {
    lines.push(`  ${name}: ${text}: ${verdict(ok)}`);
    if (!ok) failed = true;
  }
}
if (figures.busy && figures.short) {
  const ratio = figures.short.seconds / figures.busy.seconds;
  lines.push(`  short / busy time ${figure(ratio, 2, 1.2)} <= 1.2: ${verdict(ratio <= 1.2)}`);
  if (ratio > 1.2) failed = true;
}
if (!hasLnav) lines.push('  (lnav is not installed: apt-get install lnav for the ratio to its load)');
// Months of following: memory per distinct request id on a stream (issue: fleet).
const few = await idsOnStream(100_000);
const many = await idsOnStream(1_000_000);
const perId = ((many.rssMiB - few.rssMiB) * 1048576) / (many.ids - few.ids);
lines.push(`  stream of 1,000,000 request ids: peak RSS ${figure(many.rssMiB, 0, 256)} MiB <= 256: ${verdict(many.rssMiB <= 256)} (${perId.toFixed(0)} bytes per id; 100,000 ids: ${few.rssMiB.toFixed(0)} MiB)`);
if (many.rssMiB > 256) failed = true;
process.stdout.write(`Targets:\n${lines.join('\n')}\n${failed ? 'NOT all targets met' : 'all targets met'}\n\n`);
if (!hostileBench((t) => process.stdout.write(t))) failed = true;
process.exitCode = failed ? 1 : 0;
