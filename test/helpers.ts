// Shared by the tests: build log lines like the service writes them, and run the
// pipeline on text in memory.

import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareViolations, type Violation } from '../src/analyse/violation.js';
import { severities, type Severities } from '../src/analyse/rules.js';
import type { RetireSettings, RowWarming, Summary } from '../src/analyse/analyser.js';
import type { Selection } from '../src/analyse/selection.js';
import { Chalk } from 'chalk';
import { Interner } from '../src/parse/intern.js';
import { StreamChecker } from '../src/pipeline.js';
import { REPORTERS, type Format } from '../src/report/registry.js';
import { reportText, type ReportSettings } from '../src/report/reporter.js';

export const SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_db.php';
export const SEG = 'cpsess0123456789';
export const ID = '3fa9c2d1';

export function refreshPath(segment = SEG): string {
  return `/${segment}/3rdparty/roundcube/index.php?_task=mail&_action=refresh`;
}

export function query(table: string): string {
  return `SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name`;
}

/** A refresh lookup line: `time` is `HH:MM:SS` on 21-Nov-2026 at +0100 unless a full stamp is given. */
export function lookup(
  time: string,
  table: 'calendars' | 'caldav_calendars',
  opts: { id?: string | null; segment?: string | null; zone?: string } = {},
): string {
  const stamp = time.includes('-') ? time : `21-Nov-2026 ${time} ${opts.zone ?? '+0100'}`;
  const id = opts.id === undefined ? ID : opts.id;
  const segment = opts.segment === undefined ? SEG : opts.segment;
  const path = segment === null ? '/3rdparty/roundcube/index.php?_task=mail&_action=refresh' : refreshPath(segment);
  return `[${stamp}]: ${id === null ? '' : `<${id}> `}DB Error: [1] no such table: ${table} (SQL Query: ${query(table)}) in ${SRC} on line 578 (POST ${path})`;
}

export function pair(time: string, opts: Parameters<typeof lookup>[2] = {}): string[] {
  return [lookup(time, 'calendars', opts), lookup(time, 'caldav_calendars', opts)];
}

/** Any other entry: an IMAP error at `time`, with the given id and segment. */
export function imap(time: string, opts: { id?: string | null; segment?: string | null } = {}): string {
  const id = opts.id === undefined ? ID : opts.id;
  const segment = opts.segment === undefined ? SEG : opts.segment;
  const path = segment === null ? '/index.php?_task=mail&_action=refresh' : refreshPath(segment);
  return `[21-Nov-2026 ${time} +0100]: ${id === null ? '' : `<${id}> `}IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST ${path})`;
}

export interface Checked {
  summary: Summary;
  violations: Violation[];
}

export interface CheckOptions {
  pairWindow?: number;
  severities?: Partial<Severities>;
  selection?: Selection | null;
  gapSeconds?: number;
  /** When idle request ids are packed away. */
  retire?: RetireSettings;
  /** The report's row writer, run once during the reading. */
  warmRows?: RowWarming;
  /** Feed the bytes in chunks of this size, or of these sizes in turn (default: all at once). */
  chunk?: number | number[];
}

type FileText = string | Buffer;

/** Runs the pipeline on one text, or on named files read as one stream. */
export function check(input: FileText | [string, FileText][], opts: CheckOptions = {}): Checked {
  const files: [string, FileText][] = Array.isArray(input) ? input : [['errors.log', input]];
  const violations: Violation[] = [];
  const checker = new StreamChecker(
    { pairWindow: opts.pairWindow ?? 30, severities: severities(opts.severities), selection: opts.selection, gapSeconds: opts.gapSeconds, retire: opts.retire, warmRows: opts.warmRows },
    (f) => violations.push(f),
  );
  for (const [name, text] of files) {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    const feed = checker.addFile(name);
    const sizes = opts.chunk === undefined ? [] : Array.isArray(opts.chunk) ? opts.chunk : [opts.chunk];
    for (let i = 0, k = 0; i < bytes.length; k++) {
      const size = sizes.length === 0 ? bytes.length : sizes[k % sizes.length];
      feed.push(bytes.subarray(i, i + size));
      i += size;
    }
    feed.end();
    // As a run does once an input is read: its buffer in the reader's space goes to the next.
    feed.done();
  }
  const summary = checker.finish();
  return { summary, violations: violations.sort(compareViolations) };
}

/** A log text from lines, each ended by a newline. */
export function log(...lines: (string | string[])[]): string {
  return lines.flat().map((l) => l + '\n').join('');
}

/**
 * About `bytes` of log (counted as 200 bytes a line) in which 500 request ids recur:
 * pairs, IMAP errors and pairs the wrong way round, three entries a second from 10:00
 * on, the `from`-th first; after the lines `before`. Large logs for the parallel readers.
 */
export function recurringIdsLog(bytes: number, from = 0, before: string[] = []): string {
  const clock = (i: number) => {
    const s = 36000 + Math.floor(i / 3);
    return [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  };
  const parts = [...before];
  for (let i = from, size = 0; size < bytes; i++, size = parts.length * 200) {
    const t = clock(i);
    const id = `${(0x10000000 + (i % 500)).toString(16)}`;
    if (i % 7 === 0) parts.push(imap(t, { id }));
    else if (i % 13 === 0) parts.push(lookup(t, 'caldav_calendars', { id }), lookup(t, 'calendars', { id }));
    else parts.push(...pair(t, { id }));
  }
  return log(...parts);
}

/** `rule@line` for each violation: compact to assert on. */
export function where(c: Checked): string[] {
  return c.violations.map((f) => `${f.rule}@${f.line}`);
}

/** A report of a checked log through the format's registered Reporter, as the command makes it. */
export function report(format: Format, c: Checked, over: Partial<ReportSettings> = {}): string {
  const settings: ReportSettings = {
    severities: severities(),
    requestIdAlphabet: 'hex',
    chalk: new Chalk({ level: 0 }),
    all: false,
    width: 100,
    paths: { root: '/repo', cwd: '/repo' },
    host: 'test-host',
    logName: 'errors.log',
    env: {},
    ...over,
  };
  const run = { timestamp: 1_763_700_000, durationSeconds: 0.5, success: true };
  const out = REPORTERS[format].end({ ...settings, summary: c.summary, violations: c.violations, streamed: false, run });
  return reportText(out);
}

/**
 * Keys of the given lengths (hex digits) that an interner puts in one set of slots. A
 * reader keeps an id's tail, body and number by its slot: three such ids taken in turn
 * share slots, each finding another's state there.
 */
export function keysOfOneSet(lengths: readonly number[]): string[] {
  const probe = new Interner<null>(() => null);
  const setOf = (key: string) => (probe.get(Buffer.from(key, 'latin1'), 0, key.length), probe.slot >> 1);
  const keys: string[] = [];
  let set = -1;
  for (let n = 0; keys.length < lengths.length; n++) {
    const key = n.toString(16).padStart(lengths[keys.length], '0');
    if (keys.includes(key)) continue;
    const s = setOf(key);
    if (set < 0) set = s;
    if (s === set) keys.push(key);
  }
  return keys;
}

/**
 * A test that asks V8 or Node itself, in a process of its own: `script`, an ES module's
 * text, written once and run by Node with `flags` (`--allow-natives-syntax` for `%…`,
 * `--expose-gc`, `--expose-internals`); each call runs it with its arguments.
 */
export function nodeScript(name: string, script: string, flags: readonly string[] = []): (...args: string[]) => SpawnSyncReturns<string> {
  const file = join(mkdtempSync(join(tmpdir(), `webmail-log-${name}-`)), `${name}.mjs`);
  writeFileSync(file, script);
  return (...args) => spawnSync(process.execPath, [...flags, file, ...args], { encoding: 'utf8' });
}
