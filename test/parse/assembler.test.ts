import { describe, expect, it } from 'vitest';
import { Assembler, ENTRY_CAP } from '../../src/parse/assembler.js';

interface Seen {
  entries: { line: number; text: string; firstLine: string }[];
  orphans: number[];
  lines: number;
}

/**
 * Assembles `text` fed in chunks of `chunk` bytes: pushed, or read straight into the
 * assembler's buffer (`read`), each read asked for `chunk` bytes and given at most
 * `short` of them, as a read may return fewer than asked.
 */
function assemble(text: string | Buffer, chunk = Infinity, read?: { short: number }): Seen {
  const seen: Seen = { entries: [], orphans: [], lines: 0 };
  const a = new Assembler({
    entry: (buf, start, end, _close, firstLineEnd, line) =>
      seen.entries.push({ line, text: buf.toString('utf8', start, end), firstLine: buf.toString('utf8', start, firstLineEnd) }),
    orphanRun: (line) => seen.orphans.push(line),
  });
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const size = Math.min(chunk, Math.max(1, bytes.length));
  if (read === undefined) {
    for (let i = 0; i < bytes.length; i += size) a.push(bytes.subarray(i, i + size));
  } else {
    for (let i = 0; i < bytes.length; ) {
      i += a.pushRead(Math.min(size, bytes.length - i), (buf, at, max) => bytes.copy(buf, at, i, i + Math.min(max, read.short)));
    }
  }
  seen.lines = a.endFile();
  return seen;
}

const H1 = '[21-Nov-2026 10:04:07 +0100]: <3fa9c2d1> DB Error: one';
const H2 = '[21-Nov-2026 10:04:08 +0100]: <3fa9c2d1> DB Error: two';

describe('assembler', () => {
  it('counts lines: a last line without newline counts, an empty file has none', () => {
    expect(assemble('').lines).toBe(0);
    expect(assemble('\n').lines).toBe(1);
    expect(assemble(`${H1}\n${H2}`).lines).toBe(2);
    expect(assemble(`${H1}\n${H2}\n`).lines).toBe(2);
    expect(assemble(`${H1}\n\n`).lines).toBe(2);
  });

  it('folds lines that start no entry into the entry above', () => {
    const seen = assemble(`${H1}\n  FROM caldav_calendars\n#0 {main}\n${H2}\n`);
    expect(seen.entries).toEqual([
      { line: 1, text: `${H1}\n  FROM caldav_calendars\n#0 {main}`, firstLine: H1 },
      { line: 4, text: H2, firstLine: H2 },
    ]);
  });

  it('takes CRLF as a line end, and a lone CR as text', () => {
    const seen = assemble(`${H1}\r\nmore\r\n${H2}\r\n`);
    expect(seen.lines).toBe(3);
    expect(seen.entries[0].firstLine).toBe(H1);
    expect(seen.entries[1].line).toBe(3);
    const lone = assemble(`${H1}\r${H2}\n`);
    expect(lone.lines).toBe(1);
    expect(lone.entries).toHaveLength(1);
  });

  it('reports each run of non-blank lines before the first entry once, at its first line', () => {
    const seen = assemble(`junk\nmore junk\n\n  \t\nagain\n${H1}\nnot orphan\n\nnot orphan either\n`);
    expect(seen.orphans).toEqual([1, 5]);
    expect(seen.entries).toHaveLength(1);
    expect(seen.lines).toBe(9);
  });

  it('takes blank lines before the first entry as no run', () => {
    expect(assemble(`\n \n\t\n${H1}\n`).orphans).toEqual([]);
  });

  it('gives the same result whatever the chunk size', () => {
    const text = `junk\r\n${H1}\r\n  x\r\n\r\n${H2}\nlast line without newline`;
    const whole = assemble(text);
    for (const chunk of [1, 2, 3, 7, 30, 64]) expect(assemble(text, chunk), String(chunk)).toEqual(whole);
  });

  it('gives the same result when read straight into its buffer, in reads of any size, short ones too', () => {
    const text = `junk\r\n${H1}\r\n  x\r\n\r\n${H2}\nlast line without newline`;
    const whole = assemble(text);
    for (const [chunk, short] of [[1, 1], [7, 3], [30, 7], [64, 64], [1 << 20, 5]]) {
      expect(assemble(text, chunk, { short }), `${chunk}/${short}`).toEqual(whole);
    }
  });

  it('cuts an entry over the cap as pushing it does, when read straight into its buffer', () => {
    const text = `${H1} ${'y'.repeat(3 * ENTRY_CAP)}\n${H2}\n`;
    const brief = (seen: Seen) => seen.entries.map((e) => ({ line: e.line, length: e.text.length, head: e.text.slice(0, 80), tail: e.text.slice(-80) }));
    for (const chunk of [1 << 16, 1 << 20]) {
      expect(brief(assemble(text, chunk, { short: chunk })), String(chunk)).toEqual(brief(assemble(text, chunk)));
    }
  });

  it('keeps a CR split from its LF across chunks out of the line', () => {
    const text = `${H1}\r\n${H2}\r\n`;
    const at = text.indexOf('\r') + 1;
    const a: string[] = [];
    const asm = new Assembler({ entry: (b, s, _e, _c, f) => a.push(b.toString('utf8', s, f)), orphanRun: () => {} });
    asm.push(Buffer.from(text.slice(0, at)));
    asm.push(Buffer.from(text.slice(at)));
    asm.endFile();
    expect(a).toEqual([H1, H2]);
  });

  it('survives bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from(`${H1} `), Buffer.from([0xff, 0xfe, 0x00, 0xc3]), Buffer.from(`\n${H2}\n`)]);
    const seen = assemble(bytes);
    expect(seen.entries).toHaveLength(2);
    expect(seen.lines).toBe(2);
  });

  it('starts each file afresh: lines before its first entry are orphans again', () => {
    const seen: number[] = [];
    const a = new Assembler({ entry: (_b, _s, _e, _c, _f, line) => seen.push(line), orphanRun: (line) => seen.push(-line) });
    a.push(Buffer.from(`${H1}\ncontinued\n`));
    expect(a.endFile()).toBe(2);
    a.push(Buffer.from(`stray\n${H2}\n`));
    expect(a.endFile()).toBe(2);
    expect(seen).toEqual([1, -1, 2]);
  });

  it('holds an entry longer than its first buffer, up to the cap', () => {
    const long = `${H1} ${'x'.repeat(900_000)} end`;
    const seen = assemble(`${long}\n${H2}\n`, 1 << 16);
    expect(seen.entries[0].text).toBe(long);
    expect(seen.entries[1].text).toBe(H2);
  });
});

describe('assembler on a live stream', () => {
  it('hands on a quiet entry as it stands, and only counts lines that still come for it', () => {
    const seen: string[] = [];
    const a = new Assembler({ entry: (b, s, e, _c, _f, line) => seen.push(`${line}:${b.toString('utf8', s, e)}`), orphanRun: (l) => seen.push(`orphan ${l}`) });
    a.push(Buffer.from(`${H1}\n  more\n`));
    a.flushOpen();
    expect(seen).toEqual([`1:${H1}\n  more`]);
    a.flushOpen();
    a.push(Buffer.from(`  late continuation\n${H2}\n`));
    expect(a.endFile()).toBe(4);
    expect(seen).toEqual([`1:${H1}\n  more`, `4:${H2}`]);
  });

  it('keeps a half-written line back when it flushes', () => {
    const seen: string[] = [];
    const a = new Assembler({ entry: (b, s, e) => seen.push(b.toString('utf8', s, e)), orphanRun: () => {} });
    a.push(Buffer.from(`${H1}\n[21-Nov-2026 10:04:08 +01`));
    a.flushOpen();
    expect(seen).toEqual([H1]);
    a.push(Buffer.from(`00]: next\n`));
    a.endFile();
    expect(seen).toEqual([H1, '[21-Nov-2026 10:04:08 +0100]: next']);
  });

  it('started mid-file, keeps the file line numbers and takes leading lines as the tail of an entry', () => {
    const seen: string[] = [];
    const a = new Assembler({ entry: (_b, _s, _e, _c, _f, line) => seen.push(`entry ${line}`), orphanRun: (l) => seen.push(`orphan ${l}`) });
    a.startAt(100);
    a.push(Buffer.from(`  ORDER BY name) in f on line 1 (POST /x)\n${H2}\n`));
    expect(a.endFile()).toBe(2);
    expect(seen).toEqual(['entry 102']);
  });
});

describe('assembler memory cap', () => {
  function run(parts: Iterable<Buffer>) {
    const seen: { line: number; length: number; cut: boolean; head: string; tail: string }[] = [];
    const a = new Assembler({
      entry: (b, s, e, _c, _f, line, cut) => seen.push({ line, length: e - s, cut, head: b.toString('latin1', s, s + 60), tail: b.toString('latin1', e - 60, e) }),
      orphanRun: () => {},
    });
    let peak = 0;
    for (const part of parts) {
      a.push(part);
      peak = Math.max(peak, (a as unknown as { buf: Buffer }).buf.length);
    }
    return { seen, lines: a.endFile(), peak };
  }

  it('keeps the head and tail of a 100 MB one-line entry, in a few MiB', () => {
    const head = Buffer.from('[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error: [1] no such table: calendars (SQL Query: SELECT ');
    const tail = Buffer.from(") in f on line 1 (POST /cpsess0123456789/x/index.php?_task=mail&_action=refresh)\n");
    const block = Buffer.alloc(1 << 20, 'x');
    const parts = function* () {
      yield head;
      for (let i = 0; i < 100; i++) yield block;
      yield tail;
      yield Buffer.from(`${H2}\n`);
    };
    const { seen, lines, peak } = run(parts());
    expect(lines).toBe(2);
    expect(seen).toHaveLength(2);
    expect(seen[0].cut).toBe(true);
    expect(seen[0].length).toBeLessThanOrEqual(ENTRY_CAP + 1);
    expect(seen[0].head.startsWith('[21-Nov-2026 10:00:00 +0100]: <3fa9c2d1> DB Error')).toBe(true);
    expect(seen[0].tail.endsWith('_action=refresh)')).toBe(true);
    expect(seen[1]).toMatchObject({ line: 2, cut: false });
    expect(peak).toBeLessThanOrEqual(8 << 20);
  });

  it('counts every line of an endless run of continuation lines, in a few MiB', () => {
    const line = Buffer.from('  continuation of a query that never ends\n');
    const many = Buffer.concat(Array.from({ length: 25_000 }, () => line));
    const parts = function* () {
      yield Buffer.from(`${H1}\n`);
      for (let i = 0; i < 100; i++) yield many;
      yield Buffer.from(`${H2}\n`);
    };
    const { seen, lines, peak } = run(parts());
    expect(lines).toBe(1 + 2_500_000 + 1);
    expect(seen.map((s) => [s.line, s.cut])).toEqual([
      [1, true],
      [2_500_002, false],
    ]);
    expect(peak).toBeLessThanOrEqual(8 << 20);
  });

  it('does not mistake the kept tail of a long line for an entry start', () => {
    const long = Buffer.concat([Buffer.from('  '), Buffer.alloc(ENTRY_CAP, 'y'), Buffer.from(`${H2} not a start\n`)]);
    const { seen, lines } = run([Buffer.from(`${H1}\n`), long]);
    expect(lines).toBe(2);
    expect(seen).toHaveLength(1);
    expect(seen[0].cut).toBe(true);
  });
});
