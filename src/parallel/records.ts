// Parsed entries as compact records, to cross from a parsing worker to the thread that
// analyses them: numbers in typed arrays on shared memory (handed over, not copied),
// strings sent once per worker and then named by number.

import type { EntrySink } from '../feed.js';
import { NO_STRING } from '../parse/bytes.js';
import { SLOTS } from '../parse/intern.js';
import { newEntry, signatureKey, type DbSignature, type Entry } from '../parse/entry.js';
import type { RequestCode } from '../parse/request.js';
import { Side } from '../parse/table.js';

/** Strings and signatures a worker keeps numbered before it starts its tables afresh. */
const TABLE_LIMIT = 4096;
/** Places of the writer's string cache (a power of two). */
const STRING_SLOTS = 4096;
const STRING_MASK = STRING_SLOTS - 1;

/**
 * A string's place in the writer's cache: its length and last four characters, which
 * tell request ids (hex or not) and session segments (their last digits) apart.
 */
function stringSlot(s: string): number {
  const n = s.length;
  let h = Math.imul(n, 0x01000193);
  for (let i = n > 4 ? n - 4 : 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 13)) & STRING_MASK;
}
/**
 * A record's numbers: line, flags, id, segment, kind or signature. What few records have
 * (an offset other than the record's before, a problem, a detail) goes in the batch's
 * `extra` list, in that order: a record takes 20 bytes and its instant's 8, where it
 * took 40, to write, to hand across and to read back (and to keep: *short*'s peak RSS by
 * default 131-142 → 125-126 MiB in the bench).
 */
const INTS = 5;
const F_MALFORMED = 1;
const F_NEGATIVE = 2;
const F_SIDE_SHIFT = 2; // two bits
const F_ID = 16;
const F_SEGMENT = 32;
const F_DB = 64;
const F_ORPHAN = 128;
const F_TRUNCATED = 256;
const F_DETAIL = 512;
const F_STAMPED = 8192;
const F_REQUEST_SHIFT = 10; // three bits
const F_OFFSET = 16384;

/**
 * Where each field of an Entry travels. The table is typed by Entry's keys: a field added
 * to Entry does not compile until it is given a place here (and in entry() and read()
 * below; the round-trip property test in test/parallel checks that it arrives).
 */
const ENCODING: Record<keyof Entry, string> = {
  fileIndex: 'not sent: the reader sets it for the whole batch',
  line: 'ints[0], counted from the chunk, plus the chunk\'s line base',
  instant: 'instants[]',
  offset: 'extra, with flag F_OFFSET, when it is not the record\'s before (in the batch)',
  negative: 'flag F_NEGATIVE',
  stamped: 'flag F_STAMPED',
  problem: 'extra, a string, with flag F_MALFORMED',
  requestId: 'ints[2], a string, with flag F_ID',
  idSlot: 'not sent: a slot of the parsing thread\'s interner, nothing to another (the reader leaves -1)',
  kind: 'ints[4], a string, without flag F_DB',
  signature: 'ints[4], a signature, with flag F_DB (kind DB)',
  segment: 'ints[3], a string, with flag F_SEGMENT',
  side: 'flags, two bits from F_SIDE_SHIFT',
  truncated: 'flag F_TRUNCATED',
  request: 'flags, three bits from F_REQUEST_SHIFT',
  detail: 'extra, a string, with flag F_DETAIL',
};
void ENCODING;

/**
 * Record arrays live on shared memory, so that a batch crosses threads without a
 * transfer. A transfer detaches an ArrayBuffer, and the first detach in a thread throws
 * away all of its optimised code that reads a typed array or a Buffer (V8's detaching
 * protector): on 1 GB, every parse function was compiled twice in each thread, which on
 * two cores took CPU from the parsing itself. Both threads see the memory, so a batch's
 * arrays are the reader's alone until it gives them back (recycle): the writer fills only
 * arrays it has been given back, or new ones.
 */
function float64s(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}

function int32s(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(length * Int32Array.BYTES_PER_ELEMENT));
}

/** One chunk's records, as posted by a worker. */
export interface RecordBatch {
  count: number;
  instants: Float64Array;
  ints: Int32Array;
  /** Offsets, problems and details, record after record (see INTS). */
  extra: number[];
  /** Strings and signatures first seen in this batch, in the order they were numbered. */
  newStrings: string[];
  newSignatures: [string, string, Side | null][];
  /** The writer forgot its tables before this batch: the reader starts its own afresh. */
  reset: boolean;
  /** Lines in the chunk. */
  lines: number;
}

/**
 * The last request id and segment a writer numbered, in an object of their own, made anew
 * for each batch: sessions interleave, so the id changes at most entries. Kept in the
 * writer, which soon lives in V8's old space, each such store of a string still young
 * (every id and segment of a short session is young all its life) called the write
 * barrier's stub; stored into an object made for the batch, mostly still young, it does not.
 */
interface Last {
  id: string;
  segment: string;
}

/** The worker's side: numbers strings and signatures, once each, for the life of the worker. */
export class RecordWriter {
  private instants: Float64Array = float64s(1024);
  private ints: Int32Array = int32s(1024 * INTS);
  private count = 0;
  /**
   * Strings numbered since the tables were started afresh, in a cache of STRING_SLOTS: a
   * string whose place another took is numbered again (the reader keeps both numbers).
   * Not a Map: a short-session log brings thousands of new ids and segments a chunk, and
   * a Map's tables grown for them lived through the chunk and were copied out of V8's
   * young generation (12 MB of the 24 promoted in a worker's half of *short*'s 1 GB).
   */
  private readonly slotStrings: string[] = new Array<string>(STRING_SLOTS).fill(NO_STRING);
  private readonly slotRefs = new Int32Array(STRING_SLOTS);
  /**
   * Request ids numbered, by their slot in the parser's interner (Entry.idSlot), and the
   * segment each was last numbered with. Sessions interleave, so the id changes at most
   * entries: found so, it is not hashed, and neither it nor its segment is compared by
   * text with the entry before's (V8 compares two strings of one length character by
   * character). Three passes of *short* 300 MB parsed into records: 890-907 → 840-872
   * ms; of *busy*, 748 → 684.
   */
  private readonly idStrings: string[] = new Array<string>(SLOTS).fill(NO_STRING);
  private readonly idRefs = new Int32Array(SLOTS);
  private readonly idSegments: string[] = new Array<string>(SLOTS).fill(NO_STRING);
  private readonly idSegmentRefs = new Int32Array(SLOTS);
  private numbered = 0;
  private readonly signatureRefs = new Map<string, number>();
  /**
   * Kept, and emptied into each batch: a new empty array each batch is one of small
   * integers to V8 until a string goes in, and the optimised writer was thrown away for it.
   */
  private readonly newStrings: string[] = [];
  private readonly extra: number[] = [];
  /** The offset of the batch's last record, when one was sent in it. */
  private offset = 0;
  private offsetSent = false;
  private readonly newSignatures: [string, string, Side | null][] = [];
  private reset = false;
  /**
   * The last two signatures numbered, with their numbers: refreshes alternate between two
   * (local and remote), so most DB errors are numbered without a lookup in the table.
   * Compared by identity: the reader's interner hands out one object per signature (one
   * it made again is looked up by its key). Request ids and segments cached so, compared
   * by content, saved nothing on *short* (parse instructions a pass, 20 MB: 319 -> 320 M).
   */
  private signatureA: DbSignature | null = null;
  private signatureARef = 0;
  private signatureB: DbSignature | null = null;
  private signatureBRef = 0;
  /**
   * The last request id and segment numbered, with their numbers: a refresh writes two
   * entries of one session in a row, the second numbered without a look at the cache. A
   * number stays good until the tables are started afresh (the reader keeps every one).
   * The strings are held in an object made anew each batch (see Last), the numbers here.
   */
  private last: Last = { id: NO_STRING, segment: NO_STRING };
  private lastIdSlot = -1;
  private lastIdRef = 0;
  private lastSegmentRef = 0;
  /** Arrays given back after reading, to be filled again: nothing new per chunk. */
  private readonly spare: [Float64Array, Int32Array][] = [];

  /** Records written since the last take. */
  get size(): number {
    return this.count;
  }

  /** Takes back the arrays of a batch that has been read. */
  recycle(instants: Float64Array, ints: Int32Array): void {
    this.spare.push([instants, ints]);
  }

  private grow(): void {
    const instants = float64s(this.instants.length * 2);
    instants.set(this.instants);
    const ints = int32s(this.ints.length * 2);
    ints.set(this.ints);
    this.instants = instants;
    this.ints = ints;
  }

  private string(s: string): number {
    const slot = stringSlot(s);
    if (this.slotStrings[slot] === s) return this.slotRefs[slot];
    const ref = this.numbered++;
    this.slotStrings[slot] = s;
    this.slotRefs[slot] = ref;
    this.newStrings.push(s);
    return ref;
  }

  /** An id's number, by its interner slot (see idStrings). */
  private idRef(id: string, slot: number): number {
    if (this.idStrings[slot] === id) return this.idRefs[slot];
    const ref = this.numbered++;
    this.idStrings[slot] = id;
    this.idRefs[slot] = ref;
    this.newStrings.push(id);
    return ref;
  }

  private signature(s: DbSignature): number {
    let ref = this.signatureRefs.get(s.key);
    if (ref === undefined) {
      ref = this.signatureRefs.size;
      this.signatureRefs.set(s.key, ref);
      this.newSignatures.push([s.code, s.message, s.tableSide]);
    }
    return ref;
  }

  entry(e: Entry): void {
    if (this.count === this.instants.length) this.grow();
    const at = this.count * INTS;
    let flags = (e.stamped ? F_STAMPED : 0) | (e.negative ? F_NEGATIVE : 0) | (e.side << F_SIDE_SHIFT) | (e.truncated ? F_TRUNCATED : 0) | (e.request << F_REQUEST_SHIFT);
    this.instants[this.count] = e.instant;
    this.ints[at] = e.line;
    // Object.is: an offset of -0 is not 0's, nor NaN any other.
    if (!this.offsetSent || !Object.is(e.offset, this.offset)) {
      flags |= F_OFFSET;
      this.extra.push((this.offset = e.offset));
      this.offsetSent = true;
    }
    const id = e.requestId;
    const slot = e.idSlot;
    const last = this.last;
    // Whether this entry's id is another than the entry before's, told by its slot first.
    let idChanged = false;
    if (id !== null) {
      flags |= F_ID;
      if (slot !== this.lastIdSlot || id !== last.id) {
        idChanged = true;
        this.lastIdRef = slot < 0 ? this.string(id) : this.idRef(id, slot);
        last.id = id;
        this.lastIdSlot = slot;
      }
      this.ints[at + 2] = this.lastIdRef;
    }
    const segment = e.segment;
    if (segment !== null) {
      flags |= F_SEGMENT;
      // With another id, the segment that id had (most often the same string); else the
      // entry before's.
      if (idChanged && slot >= 0 ? this.idSegments[slot] !== segment : segment !== last.segment) {
        this.lastSegmentRef = this.string(segment);
        if (slot >= 0) {
          this.idSegments[slot] = segment;
          this.idSegmentRefs[slot] = this.lastSegmentRef;
        }
      } else if (idChanged && slot >= 0) {
        this.lastSegmentRef = this.idSegmentRefs[slot];
      }
      if (segment !== last.segment) last.segment = segment;
      this.ints[at + 3] = this.lastSegmentRef;
    }
    const sig = e.signature;
    if (sig !== null) {
      flags |= F_DB;
      if (sig === this.signatureA) {
        this.ints[at + 4] = this.signatureARef;
      } else if (sig === this.signatureB) {
        this.ints[at + 4] = this.signatureBRef;
      } else {
        // The older of the two gives way.
        this.signatureB = this.signatureA;
        this.signatureBRef = this.signatureARef;
        this.signatureA = sig;
        this.ints[at + 4] = this.signatureARef = this.signature(sig);
      }
    } else {
      this.ints[at + 4] = this.string(e.kind);
    }
    if (e.problem !== null) {
      flags |= F_MALFORMED;
      this.extra.push(this.string(e.problem));
    }
    if (e.detail !== null) {
      flags |= F_DETAIL;
      this.extra.push(this.string(e.detail));
    }
    this.ints[at + 1] = flags;
    this.count++;
  }

  orphanRun(line: number): void {
    if (this.count === this.instants.length) this.grow();
    const at = this.count * INTS;
    this.ints[at] = line;
    this.ints[at + 1] = F_ORPHAN;
    this.count++;
  }

  /**
   * The records so far (their arrays change hands; `count` says how much of them is
   * filled), and a fresh start for the next chunk.
   */
  take(lines: number): RecordBatch {
    const batch: RecordBatch = {
      reset: this.reset,
      count: this.count,
      instants: this.instants,
      ints: this.ints,
      extra: this.extra.splice(0),
      newStrings: this.newStrings.splice(0),
      newSignatures: this.newSignatures.splice(0),
      lines,
    };
    const [instants, ints] = this.spare.pop() ?? [float64s(this.instants.length), int32s(this.ints.length)];
    this.instants = instants;
    this.ints = ints;
    this.count = 0;
    this.offsetSent = false;
    // The tables grow with distinct ids, segments and IMAP texts: a worker that has
    // numbered many forgets them between batches, and says so in the next one.
    this.reset = this.numbered + this.signatureRefs.size > TABLE_LIMIT;
    if (this.reset) {
      this.slotStrings.fill(NO_STRING);
      this.idStrings.fill(NO_STRING);
      this.idSegments.fill(NO_STRING);
      this.numbered = 0;
      this.signatureRefs.clear();
      this.signatureA = this.signatureB = null;
      this.lastIdSlot = -1;
    }
    this.last = this.reset ? { id: NO_STRING, segment: NO_STRING } : { id: this.last.id, segment: this.last.segment };
    return batch;
  }
}


/** The analysing side: one per worker, keeping the strings and signatures it was sent. */
export class RecordReader {
  /** The strings sent so far, by number: the first stringCount places. */
  private readonly strings: string[] = [];
  private stringCount = 0;
  private readonly signatures: DbSignature[] = [];
  /**
   * One object per signature, kept across the writer's resets (up to TABLE_LIMIT of them):
   * the analysis tells signatures apart by identity, and a new object after every reset
   * (every few chunks of *short*) was young, so that each DB error's signature stored in
   * the analysis called V8's write barrier for a while. `perf` of *short* 1 GB by default:
   * the barrier's stub 359-360 samples (2 kHz) → 256-274.
   */
  private readonly known = new Map<string, DbSignature>();

  /** Hands each record of `batch` on as an entry of file `fileIndex`, lines counted from `lineBase`. */
  read(batch: RecordBatch, fileIndex: number, lineBase: number, sink: EntrySink): void {
    // Numbered afresh from 0 after a reset, over the array's old places: emptied and grown
    // again, its backing store was made anew for each few thousand strings.
    if (batch.reset) {
      this.stringCount = 0;
      this.signatures.length = 0;
    }
    // Kept as they came: internalized (runs 20-22), they spared the write barrier no more
    // than internalizing cost (docs/speed.md).
    const newStrings = batch.newStrings;
    for (let i = 0; i < newStrings.length; i++) this.strings[this.stringCount++] = newStrings[i];
    for (const [code, message, tableSide] of batch.newSignatures) {
      const key = signatureKey(code, message);
      let signature = this.known.get(key);
      if (signature === undefined) {
        if (this.known.size >= TABLE_LIMIT) this.known.clear();
        this.known.set(key, (signature = { code, message, key, tableSide }));
      }
      this.signatures.push(signature);
    }
    this.records(batch.instants, batch.ints, batch.count, batch.extra, fileIndex, lineBase, sink);
  }

  /**
   * The loop of read(), given a batch's arrays: not its object. A batch is made by
   * postMessage, or by this thread's own writer, in shapes V8 tells apart; read() was
   * compiled for the shapes it had met and thrown away at the first other one (this
   * thread's own batch, 165,000 lines into *short*), and compiled again twice (`--trace-
   * opt`, `--trace-deopt`). Split so, neither was thrown away in three runs.
   */
  private records(instants: Float64Array, ints: Int32Array, count: number, extra: number[], fileIndex: number, lineBase: number, sink: EntrySink): void {
    let x = 0;
    let offset = 0;
    const strings = this.strings;
    const signatures = this.signatures;
    // A new entry for each batch, not one kept: a kept one is soon in V8's old space, and
    // each store into it of a string still young (every id and segment a batch brings)
    // called the write barrier's stub. *short* 1 GB (`perf`, 2 kHz, two runs each): that
    // stub 94 and 89 ms of the analysing thread, 70 and 62 with an entry a batch.
    const e = newEntry();
    e.fileIndex = fileIndex;
    for (let r = 0; r < count; r++) {
      const at = r * INTS;
      const flags = ints[at + 1];
      if (flags & F_ORPHAN) {
        sink.orphanRun(lineBase + ints[at]);
        continue;
      }
      e.line = lineBase + ints[at];
      e.instant = instants[r];
      if (flags & F_OFFSET) offset = extra[x++];
      e.offset = offset;
      e.negative = (flags & F_NEGATIVE) !== 0;
      e.truncated = (flags & F_TRUNCATED) !== 0;
      e.stamped = (flags & F_STAMPED) !== 0;
      e.request = ((flags >> F_REQUEST_SHIFT) & 7) as RequestCode;
      e.side = ((flags >> F_SIDE_SHIFT) & 3) as Side;
      e.requestId = flags & F_ID ? strings[ints[at + 2]] : null;
      e.segment = flags & F_SEGMENT ? strings[ints[at + 3]] : null;
      if (flags & F_DB) {
        e.signature = signatures[ints[at + 4]];
        e.kind = 'DB';
      } else {
        e.signature = null;
        e.kind = strings[ints[at + 4]];
      }
      // In the order the writer put them: the offset (above), the problem, the detail.
      e.problem = flags & F_MALFORMED ? strings[extra[x++]] : null;
      e.detail = flags & F_DETAIL ? strings[extra[x++]] : null;
      sink.entry(e);
    }
  }
}
