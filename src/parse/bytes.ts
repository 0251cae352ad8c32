// Small helpers over bytes for the hot path: comparisons and bounded searches that make
// no string and no Buffer view, and never look outside [from, to).

export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

export function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Whether bytes [from, to) are all ASCII digits (true when empty). */
export function allDigits(buf: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isDigit(buf[i])) return false;
  return true;
}

/** An ASCII pattern as bytes. */
export function ascii(text: string): Uint8Array {
  // Not Uint8Array.from(text, mapFn): its iteration and a call a character took some 5 µs
  // for a stamp's 25, and a report makes one for each day its rows' stamps change to.
  const bytes = new Uint8Array(text.length);
  asciiInto(bytes, 0, text);
  return bytes;
}

/** `text` (ASCII) into `buf` at `at`; returns where it ends. */
export function asciiInto(buf: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) buf[at++] = text.charCodeAt(i);
  return at;
}

/** True when `pattern` stands at `at` and ends by `to`. */
export function matchAt(buf: Uint8Array, at: number, to: number, pattern: Uint8Array): boolean {
  if (at < 0 || at + pattern.length > to) return false;
  for (let i = 0; i < pattern.length; i++) if (buf[at + i] !== pattern[i]) return false;
  return true;
}

/**
 * Copies bytes [start, end) of `src` to `dst` at `at`. A few bytes (a request id, a
 * segment) by a loop, more through a plain view: Buffer#copy checks its arguments in JS
 * and makes a view anyway, and the first entries of each session copy ten ranges.
 */
export function copyBytes(src: Uint8Array, start: number, end: number, dst: Uint8Array, at: number): void {
  if (end - start <= 32) {
    for (let i = start; i < end; i++) dst[at++] = src[i];
    return;
  }
  dst.set(new Uint8Array(src.buffer, src.byteOffset + start, end - start), at);
}

/**
 * A string no log text is: a lone surrogate, which decoding bytes (Latin-1 or UTF-8)
 * never makes. Fields that remember the last string seen start with it, not null: V8
 * compares a field that has once held null with a string by its generic equality (a call
 * a comparison), where two strings are compared inline.
 */
export const NO_STRING = '\uD800';
