// Strings made from bytes, once: a log repeats a few request ids, session segments and
// DB error signatures millions of times, so the hot path looks the bytes up in a small
// hash table and gets the same value back without decoding or allocating. A cache, not
// a set: a key may sit in either of the two slots of its hash's set, and a new key
// takes the one used less recently. With one slot a key, two live sessions whose ids
// shared a slot evicted each other on every entry: a thirtieth of a busy server's
// sessions, each id made again hundreds of times (28,749 ids made for 9,025 in *busy*'s
// GB; with two, 9,663).

import { copyBytes } from './bytes.js';

/** Slots of an interner, in sets of two: a key's set is a hash of its bytes (see Interner.slot). */
export const SLOTS = 4096;
/** A hash's set, as the set's first slot. */
const SET_MASK = (SLOTS - 1) & ~1;
const FNV_PRIME = 0x01000193;

/**
 * FNV-1a over a byte range's length and its first and last 8 bytes (all of a shorter
 * one), continuing from `hash`: the hash of a key longer than WORD_KEY, or of two parts
 * (a short key of one part has hashWords'). A cache slot's key is compared in full
 * anyway, so the hash only has to spread keys over slots: sampling keeps it O(1) for
 * long keys.
 */
function hashBytes(buf: Uint8Array, start: number, end: number, hash = 0x811c9dc5): number {
  let h = Math.imul(hash ^ (end - start), FNV_PRIME);
  if (end - start <= 16) {
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  } else {
    for (let i = start; i < start + 8; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
    for (let i = end - 8; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  }
  // 30 bits: a small integer to V8, so that returning it allocates nothing.
  return h & 0x3fffffff;
}

/** Whether an Int32Array reads bytes as wordAt does (as on every machine Node mostly runs on). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Keys up to this long are read, hashed and compared as four words (see Interner.get). */
const WORD_KEY = LITTLE_ENDIAN ? 16 : 0;

/** Bytes [at, at + 4) of buf as a little-endian word, those at `end` or past it read as zeros. */
function wordAt(buf: Uint8Array, at: number, end: number): number {
  if (at + 4 <= end) return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24);
  let w = 0;
  for (let i = Math.min(end, at + 4) - 1; i >= at; i--) w = (w << 8) | buf[i];
  return w;
}

/**
 * A short key's hash from its length and words: the words multiplied apart (no chain of
 * multiplications a byte long), then mixed as MurmurHash3's last step mixes, so that each
 * bit of a word reaches the low bits that pick a set.
 */
function hashWords(len: number, w0: number, w1: number, w2: number, w3: number): number {
  let h = (len + Math.imul(w0, 0x9e3779b1) + Math.imul(w1, 0x85ebca77) + Math.imul(w2, 0xc2b2ae3d) + Math.imul(w3, 0x27d4eb2f)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  // 30 bits, as hashBytes.
  return (h ^ (h >>> 16)) & 0x3fffffff;
}

/**
 * Makes the value for a key's bytes (a second part, for keys of two: empty otherwise).
 * Given once, to the interner: each interner's call site then sees one function.
 */
export type Make<T> = (buf: Buffer, start: number, end: number, start2: number, end2: number) => T;

/**
 * Bytes of a slot in the block: one cache line, its header (the key's hash, its length
 * and its first part's) before the key. A new session's id and segment each touch one
 * line here, not one in each of four arrays: on the short-session log a new key's lines
 * were cold, as a slot is taken again only every few thousand keys.
 */
const SLOT_BYTES = 64;
const SLOT_INTS = SLOT_BYTES / 4;
const HEADER_BYTES = 12;
/** Bytes of a key kept in its slot; a longer key gets a Buffer of its own. */
const KEY_BYTES = SLOT_BYTES - HEADER_BYTES;

export class Interner<T> {
  /**
   * Short keys live in one block, a slot each: a log of a million request ids makes no
   * allocation per id here (a small Buffer each would fragment the process's memory).
   */
  private readonly block = Buffer.allocUnsafeSlow(SLOTS * SLOT_BYTES);
  /** The block's headers: [hash, length, first part's length] at SLOT_INTS × slot (length -1: empty). */
  private readonly headers = new Int32Array(this.block.buffer, this.block.byteOffset, SLOTS * SLOT_INTS);
  private readonly long: (Buffer | null)[] = new Array(SLOTS).fill(null);
  private readonly values: (T | undefined)[] = new Array(SLOTS).fill(undefined);
  /** Each set's slot used last, as 0 or 1: a new key takes the other. */
  private readonly recent = new Uint8Array(SLOTS / 2);

  /**
   * The slot of the key get() looked up last: the same for the same bytes while they stay
   * stored, so a reader may keep more of a key's by it, in plain arrays (a Map of request
   * ids, one in and one out for each new session, made its tables anew every few hundred
   * sessions, and those lived long enough to be copied out of V8's young generation).
   * Keys of a slot are few, not one: what is kept by it is checked.
   */
  slot = 0;

  constructor(private readonly make: Make<T>) {
    for (let m = 0; m < this.headers.length; m += SLOT_INTS) this.headers[m + 1] = this.headers[m + 2] = -1;
  }

  /** The value for the bytes [start, end): the stored one, or a new one, stored for next time. */
  get(buf: Buffer, start: number, end: number): T {
    const len = end - start;
    if (len > WORD_KEY) return this.getLong(buf, start, end);
    // A request id or a segment: read as four words (zero past its end), which are its
    // hash's input and, as a slot keeps its key, compared with the slot's four. Hashed
    // and compared a byte at a time, the ids' look-up was 13 % of a worker's time.
    // A key of 8 bytes or more (a request id, a segment) has its first two words read
    // here, and the words past a key's end are zeros, unread: a request id reads no more.
    // With four calls of wordAt, the entry reader inlined this look-up, and TurboFan's
    // budget of bytecode to inline into one function ran out before the last three, which
    // stayed calls (on *short*, some 60 ms of the parsing worker's 1 GB). Now the look-up
    // is compiled whole on its own, one call an entry: callgrind of *short*'s first 200 MB
    // parsed, 1,896 → 1,849 M instructions of compiled code.
    let w0: number;
    let w1: number;
    if (len >= 8) {
      w0 = buf[start] | (buf[start + 1] << 8) | (buf[start + 2] << 16) | (buf[start + 3] << 24);
      w1 = buf[start + 4] | (buf[start + 5] << 8) | (buf[start + 6] << 16) | (buf[start + 7] << 24);
    } else {
      w0 = wordAt(buf, start, end);
      w1 = wordAt(buf, start + 4, end);
    }
    const w2 = len > 8 ? wordAt(buf, start + 8, end) : 0;
    const w3 = len > 12 ? wordAt(buf, start + 12, end) : 0;
    const h = hashWords(len, w0, w1, w2, w3);
    const first = h & SET_MASK;
    const headers = this.headers;
    for (let slot = first; slot <= first + 1; slot++) {
      const m = slot * SLOT_INTS;
      if (headers[m + 1] === len && headers[m + 2] === len && headers[m + 3] === w0 && headers[m + 4] === w1 && headers[m + 5] === w2 && headers[m + 6] === w3) {
        this.use(first, slot);
        return this.values[slot] as T;
      }
    }
    return this.store(buf, start, end, end, end, h);
  }

  /** get() for a key longer than WORD_KEY. */
  private getLong(buf: Buffer, start: number, end: number): T {
    const h = hashBytes(buf, start, end);
    const first = h & SET_MASK;
    const len = end - start;
    const headers = this.headers;
    for (let slot = first; slot <= first + 1; slot++) {
      const m = slot * SLOT_INTS;
      if (headers[m] !== h || headers[m + 1] !== len || headers[m + 2] !== len) continue;
      const key = len <= KEY_BYTES ? this.block : (this.long[slot] as Buffer);
      let k = len <= KEY_BYTES ? slot * SLOT_BYTES + HEADER_BYTES : 0;
      let i = start;
      while (i < end && buf[i] === key[k]) {
        i++;
        k++;
      }
      if (i === end) {
        this.use(first, slot);
        return this.values[slot] as T;
      }
    }
    return this.store(buf, start, end, end, end, h);
  }

  /**
   * The same for a key of two parts, [start, end) and [start2, end2). Its comparison is
   * getLong's written again, not shared: a shared helper cost 2 % more instructions a parse.
   */
  get2(buf: Buffer, start: number, end: number, start2: number, end2: number): T {
    const h = hashBytes(buf, start2, end2, hashBytes(buf, start, end) ^ 0xff);
    const first = h & SET_MASK;
    const len1 = end - start;
    const len = len1 + (end2 - start2);
    const headers = this.headers;
    for (let slot = first; slot <= first + 1; slot++) {
      const m = slot * SLOT_INTS;
      if (headers[m] !== h || headers[m + 1] !== len || headers[m + 2] !== len1) continue;
      const key = len <= KEY_BYTES ? this.block : (this.long[slot] as Buffer);
      let k = len <= KEY_BYTES ? slot * SLOT_BYTES + HEADER_BYTES : 0;
      let i = start;
      while (i < end && buf[i] === key[k]) {
        i++;
        k++;
      }
      if (i !== end) continue;
      i = start2;
      while (i < end2 && buf[i] === key[k]) {
        i++;
        k++;
      }
      if (i === end2) {
        this.use(first, slot);
        return this.values[slot] as T;
      }
    }
    return this.store(buf, start, end, start2, end2, h);
  }

  /** Makes `slot` (of the set from `first`) the one looked up last, and its set's most recent. */
  private use(first: number, slot: number): void {
    this.slot = slot;
    this.recent[first >> 1] = slot - first;
  }

  /** Stores the key in the slot of its set used less recently, and makes its value. */
  private store(buf: Buffer, start: number, end: number, start2: number, end2: number, h: number): T {
    const first = h & SET_MASK;
    const slot = first + 1 - this.recent[first >> 1];
    this.use(first, slot);
    const len1 = end - start;
    const len = len1 + (end2 - start2);
    const headers = this.headers;
    const m = slot * SLOT_INTS;
    let key: Buffer;
    let at: number;
    if (len <= KEY_BYTES) {
      key = this.block;
      at = slot * SLOT_BYTES + HEADER_BYTES;
      // The long array is touched only when the slot held a long key: its line stays cold.
      if (headers[m + 1] > KEY_BYTES) this.long[slot] = null;
    } else {
      // Off Node's shared pool: a kept small Buffer would keep its whole 8 KiB slab alive.
      key = this.long[slot] = Buffer.allocUnsafeSlow(len);
      at = 0;
    }
    // A short key's four words are compared whole: the bytes past its end are zeros.
    if (len <= WORD_KEY) headers[m + 3] = headers[m + 4] = headers[m + 5] = headers[m + 6] = 0;
    copyBytes(buf, start, end, key, at);
    if (end2 > start2) copyBytes(buf, start2, end2, key, at + len1);
    const value = this.make(buf, start, end, start2, end2);
    headers[m] = h;
    headers[m + 1] = len;
    headers[m + 2] = len1;
    this.values[slot] = value;
    return value;
  }
}
