// Chunk boundaries: the rule both neighbours apply must cut only at entry starts and
// tile the file, however the bytes fall.

import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryStartFrom, pushChunk } from '../../src/parallel/chunk.js';
import { BACKLOG, chunkSize, chunkStarts, defaultJobs, freeWorker, held, MAX_DEFAULT_JOBS } from '../../src/parallel/read.js';
import { RecordReader, RecordWriter } from '../../src/parallel/records.js';
import { EntryReader, newEntry, type Entry } from '../../src/parse/entry.js';
import { Assembler } from '../../src/parse/assembler.js';
import { imap, keysOfOneSet, log, lookup, pair } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-chunk-'));

function withFile<T>(text: string | Buffer, f: (fd: number, size: number) => T): T {
  const path = join(dir, 'f.log');
  writeFileSync(path, text);
  const fd = openSync(path, 'r');
  try {
    return f(fd, Buffer.byteLength(text));
  } finally {
    closeSync(fd);
  }
}

/** Line starts of the text that start an entry, by the SPEC's rule, the slow way. */
function entryStarts(text: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const line of text.split('\n')) {
    if (/^\[\d\d-[A-Za-z]{3}-\d{4} \d\d:\d\d:\d\d [^ \]]+\]/.test(line)) out.push(Buffer.byteLength(text.slice(0, at)));
    at += line.length + 1;
  }
  return out;
}

describe('entryStartFrom', () => {
  const text = log('stray', pair('10:00:01'), `[21-Nov-2026 10:00:02 +0100]: <3fa9c2d1> DB Error: [1] x (SQL Query: SELECT`, '  FROM calendars) in f on line 1 (POST /x)', imap('10:00:03'));

  it('finds the first entry start at or after any offset', () => {
    const starts = entryStarts(text);
    withFile(text, (fd, size) => {
      for (let at = 0; at <= size; at++) {
        const expected = at === 0 ? 0 : (starts.find((s) => s >= at) ?? size);
        expect(entryStartFrom(fd, at, size), `at ${at}`).toBe(expected);
      }
    });
  });

  it('reads past lines longer than its probe, and a header split by the probe', () => {
    const long = log(imap('10:00:01'), 'x'.repeat(200_000), 'y'.repeat(70_000) + ' [21-Nov-2026 10:00:02 +0100]: not a start', imap('10:00:03'));
    const starts = entryStarts(long);
    withFile(long, (fd, size) => {
      for (const at of [1, 50, 1000, 65_535, 65_536, 131_000, 200_100, 270_000, starts[1] - 5, starts[1], starts[1] + 1]) {
        expect(entryStartFrom(fd, at, size), `at ${at}`).toBe(starts.find((s) => s >= at) ?? size);
      }
    });
  });

  it('takes the size when no entry starts after the offset', () => {
    withFile(log(imap('10:00:01'), 'tail without entries'), (fd, size) => {
      expect(entryStartFrom(fd, 5, size)).toBe(size);
    });
  });
});

describe('pushChunk', () => {
  it('reads a chunk a block (1 MiB) at a time, calling `between` after each', () => {
    // 2.5 MiB of entries: three blocks, the last a half.
    const lines: string[] = [];
    for (let i = 0; Buffer.byteLength(lines.join('\n')) < 2.5 * (1 << 20); i++) lines.push(imap(`10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`));
    const text = log(...lines);
    withFile(text, (fd, size) => {
      const events: string[] = [];
      let bytes = 0;
      const into = {
        pushRead(max: number, read: (buf: Buffer, at: number, max: number) => number): number {
          const n = read(Buffer.alloc(max), 0, max);
          bytes += n;
          events.push(`read ${n}`);
          return n;
        },
      };
      pushChunk(fd, 0, size, size, into, () => events.push('between'));
      expect(bytes).toBe(size);
      expect(events).toEqual([`read ${1 << 20}`, 'between', `read ${1 << 20}`, 'between', `read ${size - 2 * (1 << 20)}`, 'between']);
    });
  });
});

describe('chunk plan', () => {
  it('gives a chunk to the worker holding fewest, and to none while each holds BACKLOG', () => {
    expect(freeWorker([0])).toBe(0);
    expect(freeWorker([BACKLOG - 1])).toBe(0);
    expect(freeWorker([BACKLOG])).toBe(-1);
    expect(freeWorker([1, 0])).toBe(1);
    expect(freeWorker([BACKLOG, BACKLOG - 1])).toBe(1);
    expect(freeWorker([BACKLOG, BACKLOG])).toBe(-1);
  });

  it('gives none to a worker until it says it is ready', () => {
    const parsed = Int32Array.from([1, 0]);
    // Worker 0 was given 3 chunks and parsed 1; worker 1 has not started.
    expect(held([3, 0], parsed, Int32Array.from([1, 0]))).toEqual([2, BACKLOG]);
    expect(freeWorker(held([3, 0], parsed, Int32Array.from([1, 0])))).toBe(0);
    expect(freeWorker(held([0, 0], Int32Array.from([0, 0]), Int32Array.from([0, 0])))).toBe(-1);
    expect(freeWorker(held([3, 0], parsed, Int32Array.from([1, 1])))).toBe(1);
  });

  it('takes the cores as the default threads, but no more than MAX_DEFAULT_JOBS', () => {
    expect(MAX_DEFAULT_JOBS).toBe(4);
    expect(defaultJobs(1)).toBe(1);
    expect(defaultJobs(2)).toBe(2);
    expect(defaultJobs(3)).toBe(3);
    expect(defaultJobs(4)).toBe(4);
    expect(defaultJobs(64)).toBe(4);
    // availableParallelism() is at least 1; a 0 would still read with one thread.
    expect(defaultJobs(0)).toBe(1);
  });

  it('keeps chunks between 64 KiB and 8 MiB', () => {
    expect(chunkSize(1000, 2)).toBe(1 << 16);
    expect(chunkSize(100 << 20, 2)).toBe(8 << 20);
    expect(chunkSize(16 << 20, 2)).toBe(2 << 20);
  });

  it('cuts the last chunks finer, so that the end waits for little', () => {
    for (const [size, jobs] of [[1e9, 2], [1e9, 4], [300e6, 2], [16 << 20, 2], [1000, 2], [0, 2]]) {
      const starts = chunkStarts(size, jobs);
      const lengths = starts.slice(1).map((s, i) => s - starts[i]);
      expect(starts[0]).toBe(0);
      expect(starts[starts.length - 1]).toBe(size);
      expect(lengths.length).toBeGreaterThan(0);
      if (size > 0) expect(Math.min(...lengths)).toBeGreaterThan(0);
      const first = chunkSize(size, jobs);
      // Never larger than the first, never smaller than an eighth of it (or 64 KiB), but the very last.
      for (const n of lengths) expect(n).toBeLessThanOrEqual(first);
      for (const n of lengths.slice(0, -1)) expect(n).toBeGreaterThanOrEqual(Math.max(1 << 16, Math.ceil(first / 8)));
      // What a worker can hold at the end (BACKLOG chunks) is an eighth of what it was.
      if (size >= 100 << 20) expect(lengths.slice(-BACKLOG).reduce((a, b) => a + b)).toBeLessThanOrEqual((BACKLOG * first) / 8);
    }
    // A 1 GB file with 2 threads: 8 MiB chunks, then finer ones over the last 64 MiB.
    const starts = chunkStarts(1e9, 2);
    expect(starts[1]).toBe(8 << 20);
    expect(starts.length - 1).toBeLessThan(Math.ceil(1e9 / (8 << 20)) + 20);
  });
});

describe('records', () => {
  it('carry every field an entry has across threads', () => {
    fc.assert(
      // Four signatures (the writer keeps the last two it numbered at hand), in any order.
      fc.property(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 30 }), (picks) => {
        const lines = picks.map((p, i) => {
          const t = `10:00:${String(i).padStart(2, '0')}`;
          return [
            lookup(t, 'calendars'),
            lookup(t, 'caldav_calendars', { id: null, segment: null }),
            imap(t, { id: 'XY<>' }),
            '[21-Nov-2026 10:00:00 Mars/Base] PHP Warning:  x',
            `[21-Nov-2026 ${t} -0000]: DB Error: broken`,
            'stray',
            lookup(t, 'calendars').replace('table: calendars', 'table: calendarz'),
            lookup(t, 'calendars').replace('[1] no such table: calendars', '[5] database is locked'),
          ][p];
        });
        const text = Buffer.from(log(...lines));
        const direct: Entry[] = [];
        const writer = new RecordWriter();
        const reader = new EntryReader();
        const asm = new Assembler({
          entry: (b, s, e, c, f, l) => {
            const entry = reader.read(b, s, e, c, f, 0, l);
            // idSlot is the parsing thread's own (ENCODING in records.ts): it does not travel.
            direct.push({ ...entry, idSlot: -1 });
            writer.entry(entry);
          },
          orphanRun: (l) => writer.orphanRun(l),
        });
        asm.push(text);
        const batch = writer.take(asm.endFile());
        const read: Entry[] = [];
        new RecordReader().read(batch, 0, 0, { entry: (e) => read.push({ ...e }), orphanRun: () => {}, countLines: () => {} });
        expect(read).toEqual(direct);
      }),
      { numRuns: 100 },
    );
  });

  it("names each string right when two take turns at one place of the writer's cache", () => {
    // Same length and last four characters: one place, taken in turn, so each is numbered again.
    const writer = new RecordWriter();
    const entries = new EntryReader();
    const written: string[] = [];
    const asm = new Assembler({
      entry: (buf, s, e, c, f, l) => writer.entry(entries.read(buf, s, e, c, f, 0, l)),
      orphanRun: (l) => writer.orphanRun(l),
    });
    const lines = Array.from({ length: 20 }, (_, i) => {
      const [id, segment] = i % 2 === 0 ? ['aaaa1234', 'cpsess1000000001'] : ['bbbb1234', 'cpsess2000000001'];
      written.push(`${id} ${segment}`);
      return lookup('10:00:00', i % 4 < 2 ? 'calendars' : 'caldav_calendars', { id, segment });
    });
    asm.push(Buffer.from(log(...lines)));
    const batch = writer.take(asm.endFile());
    const seen: string[] = [];
    new RecordReader().read(batch, 0, 0, { entry: (e) => seen.push(`${e.requestId} ${e.segment}`), orphanRun: () => {}, countLines: () => {} });
    expect(seen).toEqual(written);
  });

  it('names ids and segments right when ids share a slot of the interner and change segments', () => {
    // Ids of one set of the parser's interner's slots, three of them to share its two (the
    // writer numbers ids, and remembers each id's segment, by slot), and another; any
    // order, any segment.
    const ids = [...keysOfOneSet([8, 8, 8]), 'abcdef01'];
    const segments = ['cpsess1000000001', 'cpsess1000000002', 'cpsess2000000001', null];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), fc.nat(3), fc.boolean()), { minLength: 1, maxLength: 40 }), (picks) => {
        const writer = new RecordWriter();
        const entries = new EntryReader();
        const written: string[] = [];
        const asm = new Assembler({
          entry: (buf, s, e, c, f, l) => writer.entry(entries.read(buf, s, e, c, f, 0, l)),
          orphanRun: (l) => writer.orphanRun(l),
        });
        const lines = picks.map(([i, k, db]) => {
          const [id, segment] = [ids[i], segments[k]];
          written.push(`${id} ${segment}`);
          return db ? lookup('10:00:00', 'calendars', { id, segment }) : imap('10:00:00', { id, segment });
        });
        asm.push(Buffer.from(log(...lines)));
        const batch = writer.take(asm.endFile());
        const seen: string[] = [];
        new RecordReader().read(batch, 0, 0, { entry: (e) => seen.push(`${e.requestId} ${e.segment}`), orphanRun: () => {}, countLines: () => {} });
        expect(seen).toEqual(written);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the string tables bounded: a worker that forgets them says so, and the reader follows', () => {
    // 40,000 distinct request ids over four batches: more than a worker keeps numbered.
    const writer = new RecordWriter();
    const reader = new RecordReader();
    const entries = new EntryReader();
    const seen: string[] = [];
    const written: string[] = [];
    let resets = 0;
    const signatures = new Set<object>();
    for (let b = 0; b < 4; b++) {
      const asm = new Assembler({
        entry: (buf, s, e, c, f, l) => writer.entry(entries.read(buf, s, e, c, f, 0, l)),
        orphanRun: (l) => writer.orphanRun(l),
      });
      // Each batch starts with the id, segment and signature the one before ended with:
      // a writer that forgot its tables must not name them by their old numbers.
      const lines = Array.from({ length: 10_000 }, (_, i) => {
        const n = b * 10_000 + i - (i === 0 && b > 0 ? 1 : 0);
        const id = n.toString(16).padStart(8, '0');
        const segment = `cpsess${1_000_000_000 + n}`;
        const db = i === 0 || i === 9_999;
        written.push(`${id} ${segment} ${db ? 'no such table: calendars' : '-'}`);
        return db ? lookup('10:00:00', 'calendars', { id, segment }) : imap('10:00:00', { id, segment });
      });
      asm.push(Buffer.from(log(...lines)));
      const batch = writer.take(asm.endFile());
      if (batch.reset) resets++;
      reader.read(batch, 0, 0, {
        entry: (e) => {
          seen.push(`${e.requestId} ${e.segment} ${e.signature?.message ?? '-'}`);
          if (e.signature !== null) signatures.add(e.signature);
        },
        orphanRun: () => {},
        countLines: () => {},
      });
      if (b > 0) expect(seen.at(-10_000)).toBe(seen.at(-10_001));
    }
    expect(resets).toBeGreaterThan(0);
    // One object for the signature, sent again after each reset: the analysis tells
    // signatures apart by identity.
    expect(signatures.size).toBe(1);
    expect(seen.length).toBe(written.length);
    expect(seen.filter((s, i) => s !== written[i])).toEqual([]);
  });
});
