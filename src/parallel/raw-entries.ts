// Entries cut from a file but not read: their bytes, and where their parts are. A worker
// reading a gzipped file whole (whole.ts) gunzips it and cuts it into entries; while the
// analysing thread keeps up, it hands them on so, which costs the worker only a copy, and
// that thread reads them itself; when that thread falls behind, the worker reads them
// into records instead (worker.ts, CUT_AT). So the reading is shared as the two threads'
// speeds allow, as a plain file's chunks are. Bytes and places live on shared memory,
// handed over and given back, for the reason records do (records.ts).

import type { RawEntrySink } from '../parse/assembler.js';

/** Per entry: start, end, `]`, first line's end (offsets into the bytes), line, flags. */
const FIELDS = 6;
const F_TRUNCATED = 1;
const F_ORPHAN = 2;

/** Entries cut, as posted by a worker. */
export interface RawBatch {
  bytes: Uint8Array;
  /** Bytes of `bytes` in use. */
  length: number;
  fields: Int32Array;
  count: number;
}

function bytesOf(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(length));
}

function fieldsOf(entries: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(entries * FIELDS * Int32Array.BYTES_PER_ELEMENT));
}

/** The worker's side: copies each entry it is handed, with its places, until taken. */
export class RawWriter {
  // A part is taken once it holds PART_BYTES (worker.ts, 1 MiB): room for that and a
  // little more; an entry of up to 1 MiB (the assembler's cap) after it grows the part.
  private bytes = bytesOf(5 << 18);
  private fields = fieldsOf(8_192);
  private count = 0;
  private length = 0;
  private readonly spare: [Uint8Array, Int32Array][] = [];

  /** Bytes held since the last take. */
  get size(): number {
    return this.length;
  }

  /** Entries (and runs before the first) held since the last take. */
  get entries(): number {
    return this.count;
  }

  entry(buf: Buffer, start: number, end: number, close: number, firstLineEnd: number, line: number, truncated: boolean): void {
    const length = end - start;
    this.room(length);
    const at = this.length;
    this.bytes.set(buf.subarray(start, end), at);
    const f = this.count * FIELDS;
    this.fields[f] = at;
    this.fields[f + 1] = at + length;
    this.fields[f + 2] = at + close - start;
    this.fields[f + 3] = at + firstLineEnd - start;
    this.fields[f + 4] = line;
    this.fields[f + 5] = truncated ? F_TRUNCATED : 0;
    this.length += length;
    this.count++;
  }

  orphanRun(line: number): void {
    this.room(0);
    const f = this.count * FIELDS;
    this.fields[f + 4] = line;
    this.fields[f + 5] = F_ORPHAN;
    this.count++;
  }

  /** What is held (its arrays change hands), and a fresh start. */
  take(): RawBatch {
    const batch: RawBatch = { bytes: this.bytes, length: this.length, fields: this.fields, count: this.count };
    const [bytes, fields] = this.spare.pop() ?? [bytesOf(this.bytes.length), fieldsOf(this.fields.length / FIELDS)];
    this.bytes = bytes;
    this.fields = fields;
    this.count = 0;
    this.length = 0;
    return batch;
  }

  /** Takes back the arrays of a batch that has been read. */
  recycle(bytes: Uint8Array, fields: Int32Array): void {
    this.spare.push([bytes, fields]);
  }

  private room(length: number): void {
    if (this.length + length > this.bytes.length) {
      const bytes = bytesOf(Math.max(this.bytes.length * 2, this.length + length));
      bytes.set(this.bytes.subarray(0, this.length));
      this.bytes = bytes;
    }
    if ((this.count + 1) * FIELDS > this.fields.length) {
      const fields = fieldsOf((this.fields.length / FIELDS) * 2);
      fields.set(this.fields);
      this.fields = fields;
    }
  }
}

/**
 * The analysing side: hands each entry of `batch` on to the feed's `cut`, to be read
 * there, from a copy where the feed keeps such entries (in its reader's space: read from
 * shared memory, each DB error's body was compared by Buffer#compare, about 0.5 s of
 * *short*'s 1 GB).
 */
export function readRaw(batch: RawBatch, feed: { cut: RawEntrySink; cutBuffer(length: number): Buffer }): void {
  const { fields } = batch;
  const buf = feed.cutBuffer(batch.length);
  buf.set(batch.bytes.subarray(0, batch.length));
  const sink = feed.cut;
  for (let r = 0; r < batch.count; r++) {
    const f = r * FIELDS;
    const flags = fields[f + 5];
    if (flags & F_ORPHAN) sink.orphanRun(fields[f + 4]);
    else sink.entry(buf, fields[f], fields[f + 1], fields[f + 2], fields[f + 3], fields[f + 4], (flags & F_TRUNCATED) !== 0);
  }
}
