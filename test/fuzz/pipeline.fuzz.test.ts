// Whatever bytes come in: no exception, every line counted, the entry identity holds,
// and the violations do not depend on how the bytes were cut into chunks.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { fakeIo } from '../fake-io.js';
import { check } from '../helpers.js';
import { damagedLog, randomBytes, trueLineCount } from './arbitraries.js';

const input = fc.oneof(damagedLog, randomBytes);

function invariants(bytes: Buffer, sizes: number[]): void {
  const whole = check(bytes);
  const s = whole.summary;
  expect(s.lines).toBe(trueLineCount(bytes));
  expect(s.dbErrors + s.otherEntries + s.malformedEntries).toBe(s.entries);
  expect(s.violations.error).toBe(whole.violations.filter((f) => f.severity === 'error').length);
  expect(s.violations.warning).toBe(whole.violations.filter((f) => f.severity === 'warning').length);
  for (const f of whole.violations) expect(f.line).toBeGreaterThanOrEqual(1);
  expect(check(bytes, { chunk: sizes })).toEqual(whole);
}

describe('fuzz: the pipeline in memory', () => {
  it('holds its invariants on damaged logs and random bytes, in any chunking', () => {
    fc.assert(
      fc.property(input, fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 5 }), (bytes, sizes) => invariants(bytes, sizes)),
      { numRuns: 1500 },
    );
  });

  it('counts every one of 10,000 continuation lines', () => {
    fc.assert(
      fc.property(damagedLog, fc.constantFrom('  more\n', '\n', '#0 x\r\n', '\x00\n'), (bytes, extra) => {
        const big = Buffer.concat([bytes, Buffer.from(`[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] x (SQL Query: a\n`), Buffer.from(extra.repeat(10_000))]);
        invariants(big, [4096]);
      }),
      { numRuns: 20 },
    );
  });
});

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-fuzz-'));

describe('fuzz: files and gzip through the command', () => {
  let n = 0;
  it('exits 0, 1 or 2 with one JSON document, the same for the plain and the gzip file', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (bytes) => {
        const plain = join(dir, `f${n}.log`);
        const packed = join(dir, `f${n++}.log.gz`);
        writeFileSync(plain, bytes);
        writeFileSync(packed, gzipSync(bytes));
        const a = fakeIo();
        const b = fakeIo();
        const statusA = await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', plain], a);
        const statusB = await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', packed], b);
        // A plain file that starts with gzip's magic bytes is read as gzip (SPEC §6: by
        // content): cut short, it is an error.
        if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
          expect(statusA).toBe(2);
          return;
        }
        expect([0, 1]).toContain(statusA);
        expect(statusB).toBe(statusA);
        expect(a.errText.replace(/^webmail-log: note: .*\n/, '')).toBe('');
        const docA = JSON.parse(a.outText);
        const docB = JSON.parse(b.outText.replaceAll(JSON.stringify(packed).slice(1, -1), plain));
        expect(docB).toEqual(docA);
        expect(docA.summary.lines).toBe(trueLineCount(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a plain file that starts with the bytes 1f 8b as gzip: cut short, exit 2', async () => {
    const path = join(dir, 'magic.log');
    writeFileSync(path, Buffer.from([0x1f, 0x8b]));
    const io = fakeIo();
    expect(await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', path], io)).toBe(2);
  });

  it('names a gzip file cut short, reports what was read, and exits 2', async () => {
    await fc.assert(
      fc.asyncProperty(damagedLog, fc.double({ min: 0.1, max: 0.9, noNaN: true }), async (bytes, share) => {
        const packed = gzipSync(Buffer.concat([bytes, Buffer.alloc(2000, 'x')]));
        const path = join(dir, `cut${n++}.gz`);
        writeFileSync(path, packed.subarray(0, Math.max(11, Math.floor(packed.length * share))));
        const io = fakeIo();
        const status = await run(['node', 'webmail-log', 'analyse', '--jobs', '1', '--format', 'json', path], io);
        expect(status).toBe(2);
        // A note about binary-looking content may come first; the error is the last line.
        expect(io.errText.replace(/^webmail-log: note: .*\n/, '')).toMatch(/^webmail-log: cannot read .*: corrupt gzip data \(.*\)\n$/);
        JSON.parse(io.outText);
      }),
      { numRuns: 50 },
    );
  });
});
