// One entry, read from its bytes: the header's stamp, the request id, the kind, and for
// DB errors the parts the rules need. Every field a rule or an aggregate reads is here.
// The hot path fills one reused Entry and makes strings only through the interners.

import { KindNames, kindAt, newParts, scanDbHead, scanDbTail, scanRequest } from './body.js';
import { ByteSpace } from './byte-space.js';
import { allDigits, copyBytes } from './bytes.js';
import { bodyStart, requestIdClose, StampReader, stampProblem } from './header.js';
import { Interner, SLOTS } from './intern.js';
import { postLoginValue, RequestCode, requestCodeAt, segmentEnd, segmentStart } from './request.js';
import { Side, sideNamed, sideOfTable, tableAfterFrom } from './table.js';

/** A DB error's code and message, made once per distinct pair. */
export interface DbSignature {
  code: string;
  message: string;
  /** Code and message in one string, for counting. */
  key: string;
  /** The side the message names (`no such table: <name>`), or null when it names no table. */
  tableSide: Side | null;
}

export interface Entry {
  /** Place of its file in the stream (0-based). */
  fileIndex: number;
  /** 1-based line of its header within its file. */
  line: number;
  /** Whether the header's values are valid: only then do instant, offset and negative hold. */
  stamped: boolean;
  /** The header's instant (seconds since the epoch), offset (seconds) and sign as written. */
  instant: number;
  offset: number;
  negative: boolean;
  /** Why the entry is malformed (SPEC §3 `malformed`), or null for a well-formed one. */
  problem: string | null;
  requestId: string | null;
  /**
   * The slot of the request id in its reader's interner (see Interner.slot), or -1 (no
   * id, or an entry not read from bytes): the same for the same id from one reader, so a
   * record writer numbers ids by it without hashing or comparing their text.
   */
  idSlot: number;
  kind: string;
  /** DB errors only. */
  signature: DbSignature | null;
  segment: string | null;
  /** Local or remote for a refresh lookup, else None. */
  side: Side;
  /** Longer than the assembler keeps: its middle was not read. */
  truncated: boolean;
  /** What the request at its end was for (RequestCode.None: no request). */
  request: RequestCode;
  /** For IMAP errors and DB Errors without the shape, the text (its first 500 bytes): what diagnosis reads. */
  detail: string | null;
}

export function newEntry(): Entry {
  // `instant` starts as a double (NaN: none yet), as every instant it will hold is: made a
  // small integer here, each Entry's shape changed on its first stamp, and with several
  // Entries (the parallel reader's) the analyser's optimised code was thrown away for
  // each: 44 deoptimisations on a 100 MB log instead of 30, about 8 % more CPU.
  return { fileIndex: 0, line: 0, stamped: false, instant: NaN, offset: 0, negative: false, problem: null, requestId: null, idSlot: -1, kind: 'text', signature: null, segment: null, side: Side.None, truncated: false, request: RequestCode.None, detail: null };
}

/**
 * Request ids whose last tail is kept: far more than the sessions open at once on a busy
 * server. An id whose tail changes takes its own place again (see keepTail), so a place
 * is taken once a session, not once a tail: a session's login, entry page and refreshes
 * took three. 512 places, not 2,048, are taken again within a few MB of log, while their
 * lines are still in the core's cache: a parse of *short* 2-3 % faster.
 */
const TAILS_KEPT = 512;
/** Bytes of a tail kept in the block (a longer one gets a Buffer of its own). */
const TAIL_BYTES = 256;
/**
 * Tails kept for any request id, as shapes: a new session's tails are its last one's but
 * for the digits of its session segment (see EntryReader.likeTail). A login's, its entry
 * page's and its refreshes' make three; the fourth place is for one written another way.
 */
const SHAPES = 4;
/**
 * Heads of DB errors kept with their signature: `DB Error: [1] no such table: calendars
 * (SQL Query: ` begins every session's first lookup (see EntryReader.likeHead).
 */
const HEADS = 4;
/** The id's places, then the shapes', then the heads'. */
const TAILS_BLOCK = (TAILS_KEPT + SHAPES + HEADS) * TAIL_BYTES;

/** What is kept of an IMAP error's text for diagnosis. */
const DETAIL_BYTES = 500;

const DB_SHAPE = 'DB Error without the shape "[code] message (SQL Query: query) in file on line N (METHOD path)"';

/** Text from the log as a string; CRLF inside an entry reads as LF. */
function decode(buf: Buffer, start: number, end: number): string {
  const text = buf.toString('utf8', start, end);
  return text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
}

/** A DB error signature's key: its code and message, joined by a NUL (the one place it is made). */
export function signatureKey(code: string, message: string): string {
  return `${code}\u0000${message}`;
}

function makeSignature(buf: Buffer, codeStart: number, codeEnd: number, messageStart: number, messageEnd: number): DbSignature {
  const code = decode(buf, codeStart, codeEnd);
  const message = decode(buf, messageStart, messageEnd);
  return {
    code,
    message,
    key: signatureKey(code, message),
    tableSide: sideNamed(message),
  };
}

const utf8 = (buf: Buffer, start: number, end: number) => buf.toString('utf8', start, end);
const latin1 = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end);

/**
 * The tail of a DB error — `) in <file> on line <n> (<METHOD> <path>)` — and what it
 * says. Everything read from a tail depends on its bytes alone, and the entries of one
 * session share theirs byte for byte; so each request id keeps its last tail, and an
 * entry ending with the same bytes reuses it after one comparison instead of a parse.
 */
interface Tail {
  /** Where its bytes are: bytes [at, at + length) of `bytes` (the block, or a Buffer of its own). */
  bytes: Buffer;
  at: number;
  length: number;
  /** Where its bytes start in the reader's space (-1: not in it). */
  spaceAt: number;
  request: RequestCode;
  segment: string | null;
  /** The interner slot of the request id that took the place last (-1: none, or not a place of the block). */
  owner: number;
}

/**
 * A tail kept as a shape: its segment's place and a login's `post_login` value, from the
 * tail's start, and when it was last matched or kept.
 */
interface Shape {
  tail: Tail;
  /** [segmentFrom, segmentTo): the session segment, whose last 10 bytes are its digits; -1: none kept here. */
  segmentFrom: number;
  segmentTo: number;
  /** [loginFrom, loginTo): a login's `post_login` digits, after the segment; for any other tail, empty at its end. */
  loginFrom: number;
  loginTo: number;
  used: number;
}

/** A DB error's head, `DB Error: [code] message (SQL Query: `, kept with what was read from it. */
interface Head {
  tail: Tail;
  signature: DbSignature | null;
  used: number;
}

/** A DB error's body (all after its request id) that a request id wrote before, and what was read from it. */
interface Body {
  /** Where its bytes are in the block. */
  at: number;
  /** -1: none kept here. */
  length: number;
  /** When it was last written or matched, by its id's own count (the least recent is replaced). */
  used: number;
  signature: DbSignature | null;
  segment: string | null;
  request: RequestCode;
  side: Side;
}

/**
 * The last bodies of one request id (a refresh's: see EntryReader.read). A refresh writes
 * two (local and remote-sync), and the next refresh the same two again; a third place keeps
 * one written another way from pushing either of them out.
 */
interface Bodies {
  a: Body;
  b: Body;
  c: Body;
  /** Bodies written or matched so far: what `used` counts in. */
  clock: number;
  /** The request id whose bodies these are, or null while the place is unused, and its interner slot. */
  id: string | null;
  slot: number;
}

/**
 * Request ids whose last bodies are kept: several times the sessions open at once on a
 * busy server. 256 cost 1-2 % more instructions a parse than 1,024 (busy, 30 MB: 486
 * against 478 M) and saved 576 KiB in each of the default run's three readers, when its
 * peak RSS stood at the 128 MiB goal.
 */
const BODY_IDS = 256;
/** Places for bodies of one request id. */
const BODIES_PER_ID = 3;
/** Bytes of a body kept in the block: a longer one is read each time. */
const BODY_BYTES = 384;
const BODIES_BLOCK = BODY_IDS * BODIES_PER_ID * BODY_BYTES;
/**
 * An assembler's buffer: a block read (1 MiB) and the entry still open before it. An
 * assembler that needs more makes a larger buffer of its own, outside the reader's space.
 */
const READ_BYTES = (2 << 20) + (64 << 10);
/**
 * Buffers a reader's space holds for assemblers: one for each file of its stream, up to as
 * many as are commonly read or followed together. Pages never written take no memory; a
 * further file reads into a buffer of its own, its bodies compared by Buffer#compare.
 */
const READ_BUFFERS = 4;

/**
 * Bodies of DB errors by request id. A session's refreshes repeat their two errors byte
 * for byte, so an entry whose body matches one its id wrote before takes what was read
 * from that one, after one comparison, instead of a reading of its head, tail and
 * signature. Everything read from a body depends on its bytes alone. Bounded: one
 * block, a place per request id, taken in turn; a place taken again forgets only the id
 * that had it, the one that came longest ago. Forgetting them all at once instead made
 * every open session read its refresh errors afresh, each 256 new ids: on the
 * short-session log 10 % more misses and 1.5 % more instructions a parse.
 */
class KnownBodies {
  /** The place of each interner slot's request id (-1: none): see Interner.slot. */
  private readonly bySlot = new Int16Array(SLOTS).fill(-1);
  private readonly block: Buffer;
  /** Where the block starts in the space's memory (-1: not in one). */
  private readonly base: number;
  private readonly places: Bodies[] = Array.from({ length: BODY_IDS }, (_, i) => {
    const at = (k: number) => (BODIES_PER_ID * i + k) * BODY_BYTES;
    return { a: newBody(at(0)), b: newBody(at(1)), c: newBody(at(2)), clock: 0, id: null, slot: -1 };
  });
  private next = 0;

  /** Kept in `space` when there is one: entries read from a buffer there are compared and copied by it. */
  constructor(private readonly space: ByteSpace | null) {
    const inSpace = space?.take(BODIES_BLOCK) ?? null;
    this.block = inSpace ?? Buffer.allocUnsafeSlow(BODIES_BLOCK);
    this.base = inSpace === null ? -1 : inSpace.byteOffset;
  }

  /** The body of `id` (at `slot` of the ids' interner) with the bytes [start, end) of `buf`, or null; `bufAt`: where buf starts in the space (-1: elsewhere). */
  find(id: string, slot: number, buf: Buffer, bufAt: number, start: number, end: number): Body | null {
    const place = this.bySlot[slot];
    if (place < 0) return null;
    const kept = this.places[place];
    if (kept.id !== id) return null;
    const len = end - start;
    const { a, b, c } = kept;
    let found: Body | null = null;
    if (bufAt >= 0 && this.base >= 0) {
      const space = this.space!;
      const at = bufAt + start;
      const base = this.base;
      if (a.length === len && space.same(at, base + a.at, len)) found = a;
      else if (b.length === len && space.same(at, base + b.at, len)) found = b;
      else if (c.length === len && space.same(at, base + c.at, len)) found = c;
    } else if (a.length === len && buf.compare(this.block, a.at, a.at + len, start, end) === 0) found = a;
    else if (b.length === len && buf.compare(this.block, b.at, b.at + len, start, end) === 0) found = b;
    else if (c.length === len && buf.compare(this.block, c.at, c.at + len, start, end) === 0) found = c;
    if (found !== null) found.used = ++kept.clock;
    return found;
  }

  /** Keeps the body [start, end) of `id`, read as `e` says, in place of its least recent one. */
  keep(id: string, slot: number, buf: Buffer, bufAt: number, start: number, end: number, e: Entry): void {
    if (end - start > BODY_BYTES) return;
    const at = this.bySlot[slot];
    let kept = at < 0 ? null : this.places[at];
    if (kept === null || kept.id !== id) {
      if (this.next >= BODY_IDS) this.next = 0;
      const place = this.next++;
      kept = this.places[place];
      if (kept.id !== null && this.bySlot[kept.slot] === place) this.bySlot[kept.slot] = -1;
      kept.id = id;
      kept.slot = slot;
      kept.a.length = kept.b.length = kept.c.length = -1;
      kept.a.used = kept.b.used = kept.c.used = kept.clock = 0;
      this.bySlot[slot] = place;
    }
    const { a, b, c } = kept;
    const body = a.used <= b.used && a.used <= c.used ? a : b.used <= c.used ? b : c;
    if (bufAt >= 0 && this.base >= 0) this.space!.copy(this.base + body.at, bufAt + start, end - start);
    else copyBytes(buf, start, end, this.block, body.at);
    body.length = end - start;
    body.used = ++kept.clock;
    body.signature = e.signature;
    body.segment = e.segment;
    body.request = e.request;
    body.side = e.side;
  }
}

function newBody(at: number): Body {
  return { at, length: -1, used: 0, signature: null, segment: null, request: RequestCode.None, side: Side.None };
}

/**
 * Reads entries from their bytes. It keeps what makes that cheap (the strings made once
 * per distinct id, segment and DB error; each request id's last tail and last three refresh
 * error bodies; the last few tails and heads of any id, as shapes) for one stream of
 * inputs; two streams each have their own. What it keeps changes how fast an entry is
 * read, never what is read (test/parse/entry.test.ts).
 */
export class EntryReader {
  /**
   * The last tail of each request id, by its slot in the ids' interner (see Interner.slot):
   * ids sharing a slot share it, and a tail is used only when its bytes are the entry's,
   * so one kept by another id, or a place since taken by another tail, is only a miss.
   */
  private readonly tailBySlot: (Tail | null)[] = new Array(SLOTS).fill(null);
  /** The interner slot of the entry's request id. */
  private idSlot = 0;
  /** The block's places, made once and taken in turn: a new tail allocates nothing. */
  private tailPlaces = tailPlaces(Buffer.allocUnsafeSlow(TAILS_BLOCK), -1);
  private nextTail = 0;
  private shapes = shapesOf(this.tailPlaces);
  private heads = headsOf(this.tailPlaces);
  private shapeClock = 0;
  /** The segment segmentOf() last found: [segmentFrom, segmentTo) of the buffer, or -1. */
  private segmentFrom = -1;
  private segmentTo = -1;
  /** Made when an assembler first asks for a buffer (undefined: not yet; null: none to be had). */
  private space: ByteSpace | null | undefined = undefined;
  /** The buffer last read from, and where it starts in the space (-1: elsewhere). */
  private seen: Buffer | null = null;
  private seenAt = -1;
  private bodies = new KnownBodies(null);
  /** The tail of the last DB error without a request id. */
  private tailWithoutId: Tail | null = null;
  private readonly parts = newParts();
  private readonly ids = new Interner<string>(utf8);
  private readonly segments = new Interner<string>(latin1);
  private readonly signatures = new Interner<DbSignature>(makeSignature);
  private readonly kinds = new KindNames();
  private readonly stamps = new StampReader();
  /** The entry read into: a new one each block (see newBlock). */
  private shared = newEntry();
  /** See scratch (undefined: not asked for yet; null: no room in the space). */
  private scratchSpace: Buffer | null | undefined;
  /** Buffers of the space given back, for the next inputs (a run of more inputs than READ_BUFFERS read them all in the space). */
  private readonly given: Buffer[] = [];

  /**
   * A buffer for an assembler that hands its entries to this reader to read into (null:
   * none here, the assembler makes its own). A DB error body read from one is compared
   * with the known ones in WebAssembly (byte-space.ts). A reader that is never asked (a
   * test's, reading one entry) makes no WebAssembly memory.
   */
  readBuffer(): Buffer | null {
    if (this.space === undefined) {
      // One buffer more than READ_BUFFERS: scratch's.
      this.space = ByteSpace.make(BODIES_BLOCK + TAILS_BLOCK + 8 + (READ_BUFFERS + 1) * (READ_BYTES + 8));
      // The bodies and tails move into the space: caches, so those known so far are let go.
      if (this.space !== null) {
        this.bodies = new KnownBodies(this.space);
        const block = this.space.take(TAILS_BLOCK);
        if (block !== null) {
          this.tailPlaces = tailPlaces(block, block.byteOffset);
          this.shapes = shapesOf(this.tailPlaces);
          this.heads = headsOf(this.tailPlaces);
          this.tailBySlot.fill(null);
          this.nextTail = 0;
        }
      }
    }
    return this.given.pop() ?? this.space?.take(READ_BYTES) ?? null;
  }

  /**
   * A buffer of this reader's space for entries cut elsewhere (by a worker), copied in to
   * be read here at once: one serves every input. Where there is no room, a new Buffer.
   */
  scratch(length: number): Buffer {
    if (this.scratchSpace === undefined) this.scratchSpace = this.readBuffer();
    return this.scratchSpace !== null && length <= this.scratchSpace.length ? this.scratchSpace : Buffer.allocUnsafe(length);
  }

  /** A buffer readBuffer handed out, done with (its input read to the end): the next input's assembler reads into it. */
  giveBack(buf: Buffer): void {
    this.given.push(buf);
  }

  /**
   * Reads the entry held in bytes [start, end) of buf; `close` is its header's `]` and
   * `firstLineEnd` the end of its first line (without CR); `truncated` says the assembler
   * kept only its head and tail. Fills and returns an entry of its own, valid until the
   * next call.
   */
  read(buf: Buffer, start: number, end: number, close: number, firstLineEnd: number, fileIndex: number, line: number, truncated = false): Entry {
    // An assembler hands on a new view of its buffer for each block it reads: asked once a block.
    if (buf !== this.seen) this.newBlock(buf);
    const e = this.shared;
    e.fileIndex = fileIndex;
    e.line = line;
    e.truncated = truncated;
    e.stamped = this.stamps.read(buf, start, close, e);
    e.problem = e.stamped ? null : `invalid header: ${stampProblem(buf, start, close)}`;
    e.requestId = null;
    e.idSlot = -1;
    e.kind = 'text';
    e.signature = null;
    e.segment = null;
    e.side = Side.None;
    e.request = RequestCode.None;
    e.detail = null;
    let at = bodyStart(buf, close, firstLineEnd);
    const idClose = requestIdClose(buf, at, firstLineEnd);
    if (idClose >= 0) {
      e.requestId = this.ids.get(buf, at + 1, idClose);
      this.idSlot = e.idSlot = this.ids.slot;
      at = idClose + 2;
    }
    // A malformed header: the entry takes part in nothing, and its body does not matter.
    if (e.problem !== null) return e;
    if (at > end) at = end;
    const bufAt = this.seenAt;
    if (e.requestId !== null) {
      const seen = this.bodies.find(e.requestId, this.idSlot, buf, bufAt, at, end);
      if (seen !== null) {
        e.kind = 'DB';
        e.signature = seen.signature;
        e.segment = seen.segment;
        e.request = seen.request;
        e.side = seen.side;
        return e;
      }
    }
    return this.readMissed(e, buf, bufAt, at, end);
  }

  /**
   * The rest of read() for an entry whose body its id did not write before (or that has
   * no id): its kind, and a DB error's head and tail. A method of its own, which TurboFan
   * compiles apart: on *short* a fifth of the entries come here, and as part of read() the
   * readers it calls were inlined there, making read()'s code larger and its compiles
   * longer. Split so, a parse of *short*'s first 200 MB ran 2.7 % fewer instructions (41 M
   * fewer in compiled code, 72 M in TurboFan).
   */
  private readMissed(e: Entry, buf: Buffer, bufAt: number, at: number, end: number): Entry {
    const parts = this.parts;
    e.kind = kindAt(buf, at, end, this.kinds);
    if (e.kind !== 'DB') {
      if (scanRequest(buf, at, end, parts) >= 0) {
        e.segment = this.segmentOf(buf);
        e.request = requestCodeAt(buf, parts.methodStart, parts.methodEnd, parts.pathStart, parts.pathEnd);
      }
      if (e.kind === 'IMAP') e.detail = decode(buf, at, Math.min(end, at + DETAIL_BYTES));
      return e;
    }
    let signature: DbSignature;
    const head = this.likeHead(buf, bufAt, at, end);
    if (head !== null) {
      signature = head.signature!;
      parts.queryStart = at + head.tail.length;
    } else {
      if (!scanDbHead(buf, at, end, parts)) return shapeless(e, buf, at, end);
      signature = this.signatures.get2(buf, parts.codeStart, parts.codeEnd, parts.messageStart, parts.messageEnd);
      this.keepHead(buf, bufAt, at, parts.queryStart, signature);
    }
    let tail = e.requestId !== null ? this.tailBySlot[this.idSlot] : this.tailWithoutId;
    const known = tail !== null ? tail.length : -1;
    if (known < 0 || end - known < parts.queryStart || !this.sameTail(tail!, buf, bufAt, end - known, end)) {
      const like = e.requestId !== null ? this.likeTail(buf, bufAt, end, parts.queryStart) : null;
      if (like !== null) {
        const start = end - like.tail.length;
        tail = this.keepTail(buf, bufAt, start, end, true);
        tail.request = like.tail.request;
        tail.segment = this.segments.get(buf, start + like.segmentFrom, start + like.segmentTo);
      } else {
        if (!scanDbTail(buf, at, end, parts)) return shapeless(e, buf, at, end);
        tail = this.keepTail(buf, bufAt, parts.queryEnd, end, e.requestId !== null);
        tail.request = requestCodeAt(buf, parts.methodStart, parts.methodEnd, parts.pathStart, parts.pathEnd);
        tail.segment = this.segmentOf(buf);
        if (e.requestId !== null && tail.segment !== null) this.keepShape(buf, bufAt, parts.queryEnd, end, tail.request);
      }
      if (e.requestId !== null) {
        this.tailBySlot[this.idSlot] = tail;
      } else {
        this.tailWithoutId = tail;
      }
    }
    const t = tail as Tail;
    e.signature = signature;
    e.segment = t.segment;
    e.request = t.request;
    if (t.request === RequestCode.Refresh) {
      e.side = e.signature.tableSide ?? sideOfTable(tableAfterFrom(decode(buf, parts.queryStart, end - t.length)));
    }
    // Only a refresh's body is kept: the two lookups of every refresh repeat byte for byte,
    // while a login's or an entry page's comes once a session (in the bench's logs none
    // came again), and a place copied for each cost *short* two copies a session more.
    if (e.requestId !== null && t.request === RequestCode.Refresh) this.bodies.keep(e.requestId, this.idSlot, buf, bufAt, at, end, e);
    return e;
  }

  /**
   * A block of the input not seen before: where it lies in the space, and a new entry to
   * read into. One entry kept for the whole input is soon in V8's old space, and each
   * store into it of a string still young (every new id and segment, and a short
   * session's are young all their life) called the write barrier's stub: *short* 1 GB
   * (`perf`, 2 kHz, three runs each), that stub 21-26 ms of the worker, 14.5-16.5 with an
   * entry a block (about 2,500 entries).
   */
  private newBlock(buf: Buffer): void {
    this.seen = buf;
    this.seenAt = this.space ? this.space.offsetOf(buf) : -1;
    this.shared = newEntry();
  }

  /** Whether bytes [start, end) of buf (at `bufAt` in the space, or -1) are those of `tail` from its byte `from` on. */
  private sameTail(tail: Tail, buf: Buffer, bufAt: number, start: number, end: number, from = 0): boolean {
    if (bufAt >= 0 && tail.spaceAt >= 0) return this.space!.same(bufAt + start, tail.spaceAt + from, end - start);
    return buf.compare(tail.bytes, tail.at + from, tail.at + from + end - start, start, end) === 0;
  }

  /**
   * A shape the entry ending at `end` has: a tail read before for another request id,
   * byte for byte the same but for its segment's 10 digits and, in a login's, the digits
   * of its `post_login` value, which are digits here too. A new session's tails are so: a
   * login changes only those (and the request id, before the body). Everything read from
   * a tail is then the same but the segment: the `) in ` found from the end is at the same
   * place, as the bytes up to it are the same (and it is inside the query's bounds:
   * checked), and what the request is does not depend on those digits (a digit is never
   * a space, `?`, `&`, `=` or `)`, and a login's `post_login` value need only be digits).
   * Or null.
   */
  private likeTail(buf: Buffer, bufAt: number, end: number, queryStart: number): Shape | null {
    const shapes = this.shapes;
    for (let k = 0; k < shapes.length; k++) {
      const s = shapes[k];
      const t = s.tail;
      const start = end - t.length;
      if (s.segmentTo < 0 || start < queryStart) continue;
      // Two bytes read here first, each comparison below being a call into WebAssembly: a
      // new session's tails are tried against the login's, the entry page's and the
      // refreshes' shapes, told apart by the byte before the `)` at their end.
      if (buf[start] !== t.bytes[t.at] || buf[end - 2] !== t.bytes[t.at + t.length - 2]) continue;
      const digits = start + s.segmentTo - 10;
      const login = start + s.loginFrom;
      const loginEnd = start + s.loginTo;
      // The bytes around the two digit runs the same, the runs digits.
      if (!this.sameTail(s.tail, buf, bufAt, start, digits) || !allDigits(buf, digits, digits + 10)) continue;
      if (!this.sameTail(s.tail, buf, bufAt, digits + 10, login, s.segmentTo) || !allDigits(buf, login, loginEnd) || !this.sameTail(s.tail, buf, bufAt, loginEnd, end, s.loginTo)) continue;
      s.used = ++this.shapeClock;
      return s;
    }
    return null;
  }

  /**
   * A head the DB error at `at` begins with, byte for byte: what scanDbHead reads
   * depends on the bytes up to the query alone, so its signature and the query's start
   * are the same. A new session's first lookups so skip the parse of their heads. Or null.
   */
  private likeHead(buf: Buffer, bufAt: number, at: number, end: number): Head | null {
    const heads = this.heads;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k];
      const t = h.tail;
      const len = t.length;
      // One byte first (see likeTail): `Query: ` ends every head, and its `e` is where an
      // empty, a local and a remote-sync lookup's heads each have another byte.
      const probe = at + len - 5;
      if (h.signature === null || at + len > end || buf[probe] !== t.bytes[t.at + len - 5] || !this.sameTail(t, buf, bufAt, at, at + len)) continue;
      h.used = ++this.shapeClock;
      return h;
    }
    return null;
  }

  /** Keeps the head [at, queryStart) just parsed, and its signature, in place of the least recently used. */
  private keepHead(buf: Buffer, bufAt: number, at: number, queryStart: number, signature: DbSignature): void {
    if (queryStart - at > TAIL_BYTES) return;
    const h = leastUsed(this.heads);
    this.copyInto(h.tail, buf, bufAt, at, queryStart);
    h.signature = signature;
    h.used = ++this.shapeClock;
  }

  /** Keeps the tail [start, end) just parsed, with a segment (segmentOf's), as a shape, in place of the least recently used. */
  private keepShape(buf: Buffer, bufAt: number, start: number, end: number, request: RequestCode): void {
    if (end - start > TAIL_BYTES) return;
    const s = leastUsed(this.shapes);
    this.copyInto(s.tail, buf, bufAt, start, end);
    s.tail.request = request;
    s.segmentFrom = this.segmentFrom - start;
    s.segmentTo = this.segmentTo - start;
    s.loginFrom = s.loginTo = end - start;
    const p = this.parts;
    const login = request === RequestCode.Login ? postLoginValue(buf, p.pathStart, p.pathEnd) : -1;
    if (login > this.segmentTo) {
      let loginEnd = login;
      while (loginEnd < p.pathEnd && buf[loginEnd] !== 0x26 /* & */) loginEnd++;
      s.loginFrom = login - start;
      s.loginTo = loginEnd - start;
    }
    s.used = ++this.shapeClock;
  }

  /**
   * A place for a tail, its bytes copied in. Tails of request ids live in one block,
   * TAIL_BYTES a place, taken in turn; the cache is a cache of the sessions at hand, not a
   * record of every id, and starts afresh when the block is used up. So a log of a million
   * sessions makes no allocation per session here.
   */
  private keepTail(buf: Buffer, bufAt: number, start: number, end: number, forId: boolean): Tail {
    const len = end - start;
    if (!forId || len > TAIL_BYTES) {
      // Off Node's shared pool: a kept small Buffer would keep its whole 8 KiB slab alive.
      const own = Buffer.allocUnsafeSlow(len);
      copyBytes(buf, start, end, own, 0);
      return { bytes: own, at: 0, length: len, spaceAt: -1, request: RequestCode.None, segment: null, owner: -1 };
    }
    // The id's own place when it still has it: its last tail, replaced. Else the next one,
    // taken in turn: a slot still holding a place taken since finds other bytes there.
    const last = this.tailBySlot[this.idSlot];
    let place: Tail;
    if (last !== null && last.owner === this.idSlot) place = last;
    else {
      if (this.nextTail >= TAILS_KEPT) this.nextTail = 0;
      place = this.tailPlaces[this.nextTail++];
      place.owner = this.idSlot;
    }
    this.copyInto(place, buf, bufAt, start, end);
    return place;
  }

  /** Bytes [start, end) of buf (at `bufAt` in the space, or -1) copied into a place of the tail block, in the space when both are. */
  private copyInto(place: Tail, buf: Buffer, bufAt: number, start: number, end: number): void {
    if (bufAt >= 0 && place.spaceAt >= 0) this.space!.copy(place.spaceAt, bufAt + start, end - start);
    else copyBytes(buf, start, end, place.bytes, place.at);
    place.length = end - start;
  }

  /** The session segment of the request just scanned into `parts`. */
  private segmentOf(buf: Buffer): string | null {
    const p = this.parts;
    const end = segmentEnd(buf, p.pathStart, p.pathEnd);
    this.segmentTo = end;
    if (end < 0) return null;
    this.segmentFrom = segmentStart(buf, p.pathStart, end);
    return this.segments.get(buf, this.segmentFrom, end);
  }
}

/** The places of a tail block; `blockAt`: where the block starts in a space (-1: not in one). */
function tailPlaces(block: Buffer, blockAt: number): Tail[] {
  return Array.from({ length: TAILS_KEPT + SHAPES + HEADS }, (_, i) => ({
    bytes: block,
    at: i * TAIL_BYTES,
    length: 0,
    spaceAt: blockAt < 0 ? -1 : blockAt + i * TAIL_BYTES,
    request: RequestCode.None,
    segment: null,
    owner: -1,
  }));
}

/** The least recently used of a few places (shapes or heads): the one a new one takes. */
function leastUsed<T extends { used: number }>(places: T[]): T {
  let least = places[0];
  for (let k = 1; k < places.length; k++) if (places[k].used < least.used) least = places[k];
  return least;
}

/** The shapes' places: those after the ids'. */
function shapesOf(places: Tail[]): Shape[] {
  return places.slice(TAILS_KEPT, TAILS_KEPT + SHAPES).map((tail) => ({ tail, segmentFrom: -1, segmentTo: -1, loginFrom: -1, loginTo: -1, used: 0 }));
}

/** The heads' places: the last of a tail block's. */
function headsOf(places: Tail[]): Head[] {
  return places.slice(TAILS_KEPT + SHAPES).map((tail) => ({ tail, signature: null, used: 0 }));
}

/** A DB Error without the shape: malformed, its text kept for diagnosis (a failed connect). */
function shapeless(e: Entry, buf: Buffer, at: number, end: number): Entry {
  e.problem = DB_SHAPE;
  e.detail = decode(buf, at, Math.min(end, at + DETAIL_BYTES));
  return e;
}
