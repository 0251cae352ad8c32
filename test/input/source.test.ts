import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { inputBytes, openInputs, reason } from '../../src/input/source.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-source-'));

async function read(name: string): Promise<string> {
  const [input] = openInputs([name], false);
  const parts: Buffer[] = [];
  // Copied: a chunk holds good until the next is read.
  for await (const chunk of inputBytes(input)) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString();
}

describe('input bytes', () => {
  it('gunzips by content, whatever the name', async () => {
    writeFileSync(join(dir, 'plain.gz'), 'not compressed\n');
    writeFileSync(join(dir, 'errors.log.1'), gzipSync('compressed\n'));
    expect(await read(join(dir, 'plain.gz'))).toBe('not compressed\n');
    expect(await read(join(dir, 'errors.log.1'))).toBe('compressed\n');
  });

  it('reads files of many blocks whole, plain and gzipped (gunzip is handed copies)', async () => {
    // Random bytes as hex: 6 MiB of text, and a gzip of it larger than a block.
    const text = randomBytes(3 << 20).toString('hex');
    writeFileSync(join(dir, 'large.log'), text);
    writeFileSync(join(dir, 'large.log.gz'), gzipSync(text, { level: 1 }));
    expect(await read(join(dir, 'large.log'))).toBe(text);
    expect(await read(join(dir, 'large.log.gz'))).toBe(text);
  });

  it('reads concatenated gzip members as one', async () => {
    writeFileSync(join(dir, 'two.gz'), Buffer.concat([gzipSync('a\n'), gzipSync('b\n')]));
    expect(await read(join(dir, 'two.gz'))).toBe('a\nb\n');
  });

  it('reads an empty file and a one-byte file', async () => {
    writeFileSync(join(dir, 'empty'), '');
    writeFileSync(join(dir, 'one'), '\x1f');
    expect(await read(join(dir, 'empty'))).toBe('');
    expect(await read(join(dir, 'one'))).toBe('\x1f');
  });

  it('names a corrupt gzip input', async () => {
    writeFileSync(join(dir, 'cut.gz'), gzipSync('x'.repeat(10000)).subarray(0, 40));
    await expect(read(join(dir, 'cut.gz'))).rejects.toThrow(/cut\.gz: corrupt gzip data/);
  });

  it('refuses a missing file and a directory before reading anything', () => {
    expect(() => openInputs([join(dir, 'missing')], false)).toThrow(InputError);
    expect(() => openInputs([join(dir, 'missing')], false)).toThrow(/no such file/);
    expect(() => openInputs([dir], false)).toThrow(/is a directory/);
  });

  it('says in words why a file cannot be read', () => {
    // Tests run as root in CI, where chmod 000 does not stop a read: check the words.
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(reason(err('EACCES'))).toBe('permission denied');
    expect(reason(err('ENOENT'))).toBe('no such file');
    expect(reason(err('EISDIR'))).toBe('is a directory');
    expect(reason(err('EIO'))).toBe('EIO');
  });
});
