// Memory shared with two small WebAssembly functions: one compares two byte ranges, one
// copies a range.
//
// Nearly every DB error of a session is recognised by one comparison of its body (about
// 300 bytes) with one its request id wrote before (entry.ts, KnownBodies). Buffer#compare
// with offsets checks its five arguments in JS and again in C++ before its memcmp, about
// 1,300 instructions a call; a WebAssembly function called from optimised code costs a few
// dozen, and compares 16 bytes a step with SIMD (8 bytes a step, it had 4 % of a worker's
// samples; 16, 1 % fewer instructions a parse). It reads only its own memory, so the
// assembler reads the log into a buffer taken from here, and the known bodies and tails
// are kept here too.
// Measured on the busy profile: 9 % fewer instructions a parse (320 → 291 M for 20 MB),
// 1 GB analysed by default in 2.47 s instead of 2.76 (median of 5 runs each, interleaved).
// A new session's first errors copy their bodies and tails in; a copy from JS made a view
// of the source each time (a typed array and its buffer), the WebAssembly one makes none:
// 4 % fewer instructions a parse of the short-session profile (20 MB, V8 single-threaded:
// 416-420 → 394-406 M), the busy one unchanged (317-323 → 317-318 M).
//
// WebAssembly may be missing (node --jitless) and its memory may not be had: each memory
// reserves gigabytes of address space, which `ulimit -v` can forbid. Then make() gives null
// and the callers compare with Buffer#compare and copy in JS, as before.

/**
 * The functions `same(a, b, n)`: 1 when the n bytes at a and at b are the same, else 0;
 * and `copy(to, from, n)`: the n bytes at `from` to `to` (memory.copy, WebAssembly's
 * memmove). `same` uses WebAssembly's SIMD (in V8 since Node 16.4): where it cannot be
 * had, the module does not compile and make() gives null.
 */
const CODE = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x0e, 0x02, // types, two:
  0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, //   0: (i32 i32 i32) -> i32
  0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00, //   1: (i32 i32 i32) -> ()
  0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x01, // import env.memory, at least 1 page
  0x03, 0x03, 0x02, 0x00, 0x01, // two functions, of types 0 and 1
  0x07, 0x0f, 0x02, // exports, two:
  0x04, 0x73, 0x61, 0x6d, 0x65, 0x00, 0x00, //   function 0 as "same"
  0x04, 0x63, 0x6f, 0x70, 0x79, 0x00, 0x01, //   function 1 as "copy"
  0x0a, 0xb6, 0x01, 0x02, // code (182 bytes), two bodies:
  0xa6, 0x01, 0x00, // same: 166 bytes, no locals but the parameters a, b, n
  0x02, 0x40, 0x03, 0x40, //   block, loop: 16 bytes a step
  0x20, 0x02, 0x41, 0x10, 0x49, 0x0d, 0x01, //     n < 16: leave the block
  0x20, 0x00, 0xfd, 0x00, 0x00, 0x00, 0x20, 0x01, 0xfd, 0x00, 0x00, 0x00, //     v128.load a, v128.load b
  0xfd, 0x51, 0xfd, 0x53, //     v128.xor, v128.any_true: a byte differs
  0x04, 0x40, 0x41, 0x00, 0x0f, 0x0b, //     if: return 0
  0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00, //     a += 16
  0x20, 0x01, 0x41, 0x10, 0x6a, 0x21, 0x01, //     b += 16
  0x20, 0x02, 0x41, 0x10, 0x6b, 0x21, 0x02, //     n -= 16
  0x0c, 0x00, 0x0b, 0x0b, //   again; end loop, end block
  0x02, 0x40, 0x03, 0x40, //   block, loop: 8 bytes a step (once at most)
  0x20, 0x02, 0x41, 0x08, 0x49, 0x0d, 0x01, //     n < 8: leave the block
  0x20, 0x00, 0x29, 0x03, 0x00, 0x20, 0x01, 0x29, 0x03, 0x00, 0x52, //     i64.load a != i64.load b
  0x04, 0x40, 0x41, 0x00, 0x0f, 0x0b, //     if: return 0
  0x20, 0x00, 0x41, 0x08, 0x6a, 0x21, 0x00, //     a += 8
  0x20, 0x01, 0x41, 0x08, 0x6a, 0x21, 0x01, //     b += 8
  0x20, 0x02, 0x41, 0x08, 0x6b, 0x21, 0x02, //     n -= 8
  0x0c, 0x00, 0x0b, 0x0b, //   again; end loop, end block
  0x02, 0x40, 0x03, 0x40, //   block, loop: the last bytes one at a time
  0x20, 0x02, 0x45, 0x0d, 0x01, //     n == 0: leave the block
  0x20, 0x00, 0x2d, 0x00, 0x00, 0x20, 0x01, 0x2d, 0x00, 0x00, 0x47, //     i32.load8_u a != i32.load8_u b
  0x04, 0x40, 0x41, 0x00, 0x0f, 0x0b, //     if: return 0
  0x20, 0x00, 0x41, 0x01, 0x6a, 0x21, 0x00, //     a += 1
  0x20, 0x01, 0x41, 0x01, 0x6a, 0x21, 0x01, //     b += 1
  0x20, 0x02, 0x41, 0x01, 0x6b, 0x21, 0x02, //     n -= 1
  0x0c, 0x00, 0x0b, 0x0b, //   again; end loop, end block
  0x41, 0x01, 0x0b, //   1; end
  0x0c, 0x00, // copy: 12 bytes, no locals but the parameters to, from, n
  0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfc, 0x0a, 0x00, 0x00, //   memory.copy(to, from, n)
  0x0b, //   end
]);

// Node has WebAssembly; @types/node 20 does not declare it (TypeScript's DOM library does).
declare const WebAssembly:
  | undefined
  | {
      Module: new (bytes: Uint8Array) => object;
      Memory: new (size: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
      Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
    };

const PAGE = 1 << 16;
let compiled: object | null = null;

/** A WebAssembly memory, handed out in pieces, and the comparison that runs over it. */
export class ByteSpace {
  private used = 0;

  private constructor(
    /** All of the memory. */
    private readonly all: Buffer,
    private readonly sameAt: (a: number, b: number, n: number) => number,
    /** Copies n bytes from one offset of the memory to another. */
    readonly copy: (to: number, from: number, n: number) => void,
  ) {}

  /** A space of at least `bytes` bytes, or null when WebAssembly or its memory cannot be had. */
  static make(bytes: number): ByteSpace | null {
    if (typeof WebAssembly === 'undefined') return null;
    try {
      compiled ??= new WebAssembly.Module(CODE);
      const pages = Math.ceil(bytes / PAGE);
      const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
      const instance = new WebAssembly.Instance(compiled, { env: { memory } });
      const { same, copy } = instance.exports as { same: (a: number, b: number, n: number) => number; copy: (to: number, from: number, n: number) => void };
      return new ByteSpace(Buffer.from(memory.buffer), same, copy);
    } catch {
      return null;
    }
  }

  /** `n` bytes of the memory not handed out before, or null when too few are left. */
  take(n: number): Buffer | null {
    const at = (this.used + 7) & ~7;
    if (at + n > this.all.length) return null;
    this.used = at + n;
    return this.all.subarray(at, at + n);
  }

  /** Where `buf` starts in this memory, or -1 when it lies elsewhere. */
  offsetOf(buf: Uint8Array): number {
    return buf.buffer === this.all.buffer ? buf.byteOffset : -1;
  }

  /** Whether the `n` bytes at offsets `a` and `b` of the memory are the same. */
  same(a: number, b: number, n: number): boolean {
    return this.sameAt(a, b, n) === 1;
  }
}
