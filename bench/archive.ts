// A bench log as logrotate leaves a month of it: cut at entry starts into ten members,
// the newest two plain and the eight older gzipped (`compress` with `delaycompress`),
// given together as one rotation set. Made once beside the log (gzip level 1, to make
// it quickly; what is read back is the same text at any level).

import { closeSync, createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

const MEMBERS = 10;
const PLAIN = 2;

/** The first entry start (a line beginning with `[`) at or after `at`. */
function entryStart(fd: number, at: number): number {
  const block = Buffer.alloc(1 << 16);
  for (let pos = at - 1; ; pos += block.length - 1) {
    const n = readSync(fd, block, 0, block.length, pos);
    if (n < 2) throw new Error(`no entry start after byte ${at}`);
    const i = block.subarray(0, n).indexOf('\n[');
    if (i >= 0) return pos + i + 1;
  }
}

/**
 * The rotation set made from the log at `path` (made if it is not there yet), as the
 * names an operator gives: `errors.log errors.log.1 errors.log.2.gz …`.
 */
export async function archiveOf(path: string, size: number): Promise<string[]> {
  const dir = `${path}.archive`;
  const names = Array.from({ length: MEMBERS }, (_, k) => join(dir, k === 0 ? 'errors.log' : k < PLAIN ? `errors.log.${k}` : `errors.log.${k}.gz`));
  if (names.every((n) => existsSync(n))) return names;
  process.stderr.write(`making the rotation set ${dir} …\n`);
  mkdirSync(dir, { recursive: true });
  const fd = openSync(path, 'r');
  const cuts = [0];
  try {
    for (let k = 1; k < MEMBERS; k++) cuts.push(entryStart(fd, Math.floor((k * size) / MEMBERS)));
  } finally {
    closeSync(fd);
  }
  cuts.push(size);
  // errors.log.9.gz holds the oldest part, errors.log the newest.
  for (let k = 0; k < MEMBERS; k++) {
    const part = MEMBERS - 1 - k;
    const source = createReadStream(path, { start: cuts[part], end: cuts[part + 1] - 1, highWaterMark: 1 << 20 });
    const temporary = `${names[k]}.part`;
    if (names[k].endsWith('.gz')) await pipeline(source, createGzip({ level: 1 }), createWriteStream(temporary));
    else await pipeline(source, createWriteStream(temporary));
    renameSync(temporary, names[k]);
  }
  return names;
}
