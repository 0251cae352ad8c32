// `npm run bench`: generates large logs with known violations (cached outside the repo),
// times webmail-log on them against grep and wc (and lnav when installed), reports MB/s
// and peak RSS, and checks the violations against the generator's ground truth.
//
//   npm run bench                 100 MB and 1 GB
//   npm run bench -- --sizes 100  only 100 MB
//   WEBMAIL_LOG_BENCH_DIR=/data npm run bench

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateLog, type GroundTruth } from './generate.js';
import { hostileBench } from './hostile.js';
import { markdownTable } from './table.js';

/** Bump when the generator's output changes, so cached logs are made anew. */
const GENERATOR_VERSION = 1;
const MB = 1e6;
const MEASURE = fileURLToPath(new URL('./measure.js', import.meta.url));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

interface Row {
  tool: string;
  seconds: number;
  rssMiB: number | null;
  note: string;
}

function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function logFor(sizeMB: number): { path: string; truth: GroundTruth } {
  const dir = process.env.WEBMAIL_LOG_BENCH_DIR ?? join(tmpdir(), 'webmail-log-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `errors-${sizeMB}MB-v${GENERATOR_VERSION}.log`);
  const truthPath = `${path}.truth.json`;
  if (existsSync(path) && existsSync(truthPath)) return { path, truth: JSON.parse(readFileSync(truthPath, 'utf8')) };
  process.stderr.write(`generating ${path} …\n`);
  const truth = generateLog(path, sizeMB * MB);
  writeFileSync(truthPath, JSON.stringify(truth, null, 2));
  return { path, truth };
}

/** Runs an external command under /usr/bin/time for its peak RSS. */
function external(tool: string, cmd: string, args: string[]): Row {
  const started = process.hrtime.bigint();
  const r = TIME
    ? spawnSync(TIME, ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const kib = TIME ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { tool, seconds, rssMiB: Number.isFinite(kib) ? kib / 1024 : null, note: r.stdout.trim().split('\n')[0] ?? '' };
}

/** Runs webmail-log through measure.js; returns the row and the JSON document. */
function ours(tool: string, args: string[], stdinPath: string | null): { row: Row; doc: unknown; text: string } {
  const { row, stdout } = measure(tool, ['--format', 'json', ...args], stdinPath);
  return { row, doc: JSON.parse(stdout), text: stdout };
}

/** Runs webmail-log through measure.js with its output thrown away. */
function oursRaw(tool: string, args: string[], stdinPath: string | null): Row {
  return measure(tool, args, stdinPath).row;
}

function measure(tool: string, args: string[], stdinPath: string | null): { row: Row; stdout: string } {
  const stdin = stdinPath ? openSync(stdinPath, 'r') : 'ignore';
  let r: SpawnSyncReturns<string>;
  try {
    r = spawnSync(process.execPath, [MEASURE, 'analyse', ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: [stdin, 'pipe', 'pipe', 'pipe'],
    });
  } finally {
    if (typeof stdin === 'number') closeSync(stdin);
  }
  const stats = JSON.parse(String(r.output[3]).trim()) as { seconds: number; maxRssKiB: number };
  return { row: { tool, seconds: stats.seconds, rssMiB: stats.maxRssKiB / 1024, note: `exit ${r.status}` }, stdout: r.stdout };
}

function checkTruth(doc: any, truth: GroundTruth): string[] {
  const problems: string[] = [];
  const s = doc.summary;
  for (const key of ['lines', 'entries', 'dbErrors', 'otherEntries', 'malformedEntries', 'refreshPairs'] as const) {
    if (s[key] !== truth[key]) problems.push(`${key}: ${s[key]}, expected ${truth[key]}`);
  }
  const byRule: Record<string, number> = {};
  for (const v of doc.violations) byRule[v.rule] = (byRule[v.rule] ?? 0) + 1;
  for (const [rule, count] of Object.entries(truth.violations)) {
    if ((byRule[rule] ?? 0) !== count) problems.push(`${rule}: ${byRule[rule] ?? 0}, expected ${count}`);
  }
  return problems;
}

function table(sizeMB: number, bytes: number, rows: Row[]): string {
  const grep = rows.find((r) => r.tool.startsWith('grep'));
  const lnav = rows.find((r) => r.tool.startsWith('lnav'));
  const head = ['tool', 'seconds', 'MB/s', '× grep', '× lnav', 'peak RSS MiB', 'note'];
  const body = rows.map((r) => [
    r.tool,
    r.seconds.toFixed(2),
    (bytes / MB / r.seconds).toFixed(0),
    grep ? (r.seconds / grep.seconds).toFixed(1) : '-',
    lnav ? (r.seconds / lnav.seconds).toFixed(2) : '-',
    r.rssMiB === null ? '-' : r.rssMiB.toFixed(0),
    r.note,
  ]);
  return `${sizeMB} MB log (${(bytes / MB).toFixed(0)} MB, warm cache):\n${markdownTable(head, body)}`;
}

const sizes = argValue('--sizes', '100,1000').split(',').map(Number).filter((n) => n > 0);
let failed = false;
const rss: Record<number, number> = {};
const speeds: Record<number, { one: number; file: number; stdin: number }> = {};
for (const sizeMB of sizes) {
  const { path, truth } = logFor(sizeMB);
  spawnSync('cat', [path], { stdio: ['ignore', 'ignore', 'ignore'] }); // warm the page cache
  const rows: Row[] = [];
  rows.push(external('wc -l', 'wc', ['-l', path]));
  rows.push(external("grep -c 'DB Error'", 'grep', ['-c', 'DB Error', path]));
  if (spawnSync('sh', ['-c', 'command -v lnav'], { stdio: 'ignore' }).status === 0) {
    // Headless load of the file, counting its lines: lnav knows no format for this log.
    rows.push(external('lnav (load, count lines)', 'lnav', ['-n', '-c', ';SELECT lines FROM lnav_file', path]));
  }
  const one = ours('webmail-log --jobs 1', ['--jobs', '1', path], null);
  const file = ours(`webmail-log (default: ${availableParallelism()} jobs)`, [path], null);
  const stdin = ours('webmail-log stdin', ['-'], path);
  const ndjson = oursRaw('webmail-log stdin ndjson', ['--format', 'ndjson', '-'], path);
  rows.push(one.row, file.row, stdin.row, ndjson);
  process.stdout.write(table(sizeMB, truth.bytes, rows) + '\n');
  const same = one.text === file.text && stdin.text.replaceAll('"file": "-"', `"file": ${JSON.stringify(path)}`) === one.text;
  if (!same) failed = true;
  process.stdout.write(`  JSON for --jobs 1, the default jobs and stdin: ${same ? 'byte-identical' : 'DIFFERENT'}\n`);
  rss[sizeMB] = Math.max(one.row.rssMiB ?? 0, file.row.rssMiB ?? 0, stdin.row.rssMiB ?? 0);
  speeds[sizeMB] = { one: truth.bytes / MB / one.row.seconds, file: truth.bytes / MB / file.row.seconds, stdin: truth.bytes / MB / stdin.row.seconds };
  for (const [what, doc] of [['--jobs 1', one.doc], ['default jobs', file.doc], ['stdin', stdin.doc]] as const) {
    const problems = checkTruth(doc, truth);
    if (problems.length > 0) {
      failed = true;
      process.stdout.write(`  ground truth (${what}): MISMATCH: ${problems.join('; ')}\n`);
    } else {
      process.stdout.write(`  ground truth (${what}): all ${Object.values(truth.violations).reduce((a, b) => a + b, 0)} planted violations and every count found\n`);
    }
  }
  process.stdout.write('\n');
}
// The targets of the speed issue, on the largest log measured.
const largest = Math.max(...sizes);
const s = speeds[largest];
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
if (s) {
  process.stdout.write(`Targets on the ${largest} MB log:\n`);
  process.stdout.write(`  >= 400 MB/s with the default jobs: ${s.file.toFixed(0)} MB/s, ${verdict(s.file >= 400)}\n`);
  process.stdout.write(`  >= 250 MB/s with --jobs 1: ${s.one.toFixed(0)} MB/s, ${verdict(s.one >= 250)}\n`);
  process.stdout.write(`  >= 200 MB/s on stdin: ${s.stdin.toFixed(0)} MB/s, ${verdict(s.stdin >= 200)}\n`);
  process.stdout.write(`  peak RSS <= 128 MiB: ${rss[largest].toFixed(0)} MiB, ${verdict(rss[largest] <= 128)}\n`);
  const smallest = Math.min(...sizes);
  if (smallest !== largest) {
    const growth = rss[largest] / rss[smallest] - 1;
    process.stdout.write(`  peak RSS within 20 % from ${smallest} MB to ${largest} MB: ${(growth * 100).toFixed(0)} %, ${verdict(growth <= 0.2)}\n`);
  }
}
process.stdout.write('\n');
if (!hostileBench((t) => process.stdout.write(t))) failed = true;
process.exitCode = failed ? 1 : 0;
