// Buffers that start on a page of memory, for reading a file in large blocks.
//
// A read copies from the page cache with the processor's string copy (`rep movsb`). On
// AMD's Zen processors that copy runs at a fifth of its speed when the destination lies
// 1 to 31 bytes past the source, modulo 4 KiB (glibc's memmove steps around it, Linux's
// copy to user memory does not). A file read from offset 0 in blocks of 1 MiB has every
// source on a page boundary, and a buffer from malloc starts 16 bytes into its page: every
// read hit that case. 1 GB read in blocks of 1 MiB on an AMD EPYC (KVM): 430-560 ms into
// Buffer.allocUnsafeSlow, 97-110 ms into a page-aligned buffer; 16 bytes past its page:
// 428 ms, 64 bytes: 98 ms. `--jobs 1` spent 9 % of its CPU in that copy.
//
// JavaScript cannot ask where a buffer lies, but a WebAssembly memory always starts on a
// page: its buffer is the aligned one. Without WebAssembly (node --jitless, or a `ulimit
// -v` that forbids its address space) the buffer is malloc's, as before.

declare const WebAssembly: undefined | { Memory: new (size: { initial: number; maximum: number }) => { buffer: ArrayBuffer } };

/** WebAssembly's page: 64 KiB, a multiple of every processor's page. */
const PAGE = 1 << 16;

/** A buffer of `bytes` bytes whose first byte starts a page of memory, where one can be had. */
export function pageAligned(bytes: number): Buffer {
  if (typeof WebAssembly !== 'undefined') {
    try {
      const pages = Math.ceil(bytes / PAGE);
      return Buffer.from(new WebAssembly.Memory({ initial: pages, maximum: pages }).buffer, 0, bytes);
    } catch {
      // no address space for it: malloc's below
    }
  }
  return Buffer.allocUnsafeSlow(bytes);
}
