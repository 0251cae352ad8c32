// Linear time on hostile lines: 1 MB lines of pathological shapes, in each place a
// line can take (a DB message, a query, a request path, a continuation line, a line
// start), timed through the whole pipeline. Target: under 50 ms per MB for every shape.

import { severities } from '../src/analyse/rules.js';
import { StreamChecker } from '../src/pipeline.js';
import { markdownTable } from './table.js';

const MB = 1e6;
const TARGET_MS_PER_MB = 50;
const HEAD = '[21-Nov-2026 10:00:07 +0100]: <3fa9c2d1> ';
const TAIL = ') in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess0123456789/3rdparty/roundcube/index.php?_task=mail&_action=refresh)';

const SHAPES: Record<string, string> = {
  '(': '(',
  ' in ': ' in ',
  'SQL Query: ': 'SQL Query: ',
  '(SQL Query: ': '(SQL Query: ',
  '[': '[',
  '<': '<',
  'spaces': ' ',
  'on line 1 (': 'on line 1 (',
  ') in ': ') in ',
  'FROM [': 'FROM [',
  'FROM "': 'FROM "',
  'no such table: ': 'no such table: ',
  'DB Error: ': 'DB Error: ',
  '\\r': '\r',
};

/** A line of about 1 MB of `unit`, in each place a line can take. */
function placements(unit: string): Record<string, string> {
  const run = unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  return {
    message: `${HEAD}DB Error: [1] ${run} (SQL Query: SELECT * FROM calendars${TAIL}`,
    query: `${HEAD}DB Error: [1] no such table: calendars (SQL Query: ${run}${TAIL}`,
    // No table in the message: the table is looked for in the query.
    'query (FROM)': `${HEAD}DB Error: [HY000] database is locked (SQL Query: ${run}${TAIL}`,
    path: `${HEAD}DB Error: [1] x (SQL Query: y) in f on line 1 (POST /${run})`,
    'zone token': `[21-Nov-2026 10:00:07 ${run.replace(/[ \]]/g, '_')}]: x`,
    continuation: `  ${run}`,
    'line start': run,
  };
}

/** Milliseconds per MB to check `copies` lines of `line` (after one warm-up). */
function msPerMB(line: string, copies = 4): number {
  const text = Buffer.from(`${HEAD}IMAP Error: first (POST /x)\n${`${line}\n`.repeat(copies)}`);
  const time = () => {
    const checker = new StreamChecker({ pairWindow: 30, severities: severities() }, () => {});
    const feed = checker.addFile('hostile.log');
    const started = process.hrtime.bigint();
    for (let i = 0; i < text.length; i += 1 << 20) feed.push(text.subarray(i, i + (1 << 20)));
    feed.end();
    checker.finish();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  time();
  return time() / (text.length / MB);
}

/** Prints the table and returns whether every shape met the target. */
export function hostileBench(write: (text: string) => void): boolean {
  write(`Hostile 1 MB lines, ms per MB through the pipeline (target < ${TARGET_MS_PER_MB}):\n`);
  const places = Object.keys(placements('x'));
  const head = ['shape', ...places, 'worst'];
  const rows: string[][] = [];
  let ok = true;
  for (const [name, unit] of Object.entries(SHAPES)) {
    const times = Object.values(placements(unit)).map((line) => msPerMB(line));
    const worst = Math.max(...times);
    if (worst >= TARGET_MS_PER_MB) ok = false;
    rows.push([JSON.stringify(name), ...times.map((t) => t.toFixed(1)), worst.toFixed(1)]);
  }
  write(markdownTable(head, rows) + '\n');
  write(`  every shape under ${TARGET_MS_PER_MB} ms/MB: ${ok ? 'met' : 'NOT met'}\n\n`);
  return ok;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() as string)) {
  process.exitCode = hostileBench((t) => process.stdout.write(t)) ? 0 : 1;
}
