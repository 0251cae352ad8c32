import { describe, expect, it } from 'vitest';
import { pageAligned } from '../../src/input/aligned.js';

describe('pageAligned', () => {
  it('gives a buffer of the length asked for, at the start of a WebAssembly memory (which starts on a page)', () => {
    for (const bytes of [1, 4096, (1 << 16) + 1, 1 << 20]) {
      const buf = pageAligned(bytes);
      expect(buf.length).toBe(bytes);
      expect(buf.byteOffset).toBe(0);
      // A WebAssembly memory's buffer: whole 64 KiB pages, not malloc's block of the size asked.
      expect(buf.buffer.byteLength % (1 << 16)).toBe(0);
      buf.fill(7);
      expect(buf[bytes - 1]).toBe(7);
    }
  });
});
