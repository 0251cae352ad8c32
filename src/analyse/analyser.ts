// Consumes entries one at a time, applies the rules, and emits each violation as soon as it
// is decided; at the end it gives the summary. Holds no list of entries or violations.
//
// With filters (a Selection), the rules still see every entry; what is counted and
// reported is only what the filters select (a violation by the entry it is reported at).

import { NO_STRING } from '../parse/bytes.js';
import type { Entry } from '../parse/entry.js';
import { Side } from '../parse/table.js';
import { IdState, Moment, RequestIdList, SignatureCounter, type Signature } from './aggregates.js';
import { ALPHABETS, type Alphabet, type AlphabetName } from './alphabet.js';
import { gapNote, type GapNote } from './cadence.js';
import { DiagnosisCollector, type Diagnosis } from './diagnosis.js';
import { RetiredIds, type PackedRows } from './retired.js';
import type { DiagnosisId } from './knowledge.js';
import type { Violation } from './violation.js';
import { Pairing, Slot, type Lookup } from './pairing.js';
import { RULE_IDS, type Level, type RuleId, type Severities } from './rules.js';
import { isEmptySelection, selects, type Selection } from './selection.js';
import { Timeline, type TimelineSeries } from './timeline.js';

export interface AnalyseSettings {
  /** Pairing window W in seconds. */
  pairWindow: number;
  severities: Severities;
  /** What `request-id-format` accepts (default: the SPEC's hex). */
  requestIdAlphabet?: AlphabetName;
  /** What is reported and summarised (default: everything). */
  selection?: Selection | null;
  /** Refresh gaps longer than this are noted (default 5 minutes). */
  gapSeconds?: number;
  /** When request ids are packed away (tests make it eager). */
  retire?: RetireSettings;
  /** The report's row writer, run once over some packed ids while a long log is read. */
  warmRows?: RowWarming;
  /** Runs the timeline keeps before it merges its buckets (the primer's: a few, see Pipeline.prime). */
  timelineRuns?: number;
}

/**
 * A report that writes its request-id rows from the packed ids (JSON, NDJSON) has V8
 * compile its writer while the log is still read: its first rows, written cold after the
 * reading with the other core idle, cost some 30-60 ms more of *short*'s list
 * (docs/speed.md).
 */
export interface RowWarming {
  /** Packed ids past which it runs: a log of fewer writes its list in a few milliseconds. */
  after: number;
  /** How many listed packed ids it writes, spread over those packed so far. */
  rows: number;
  /** Writes the rows and drops the text; reads the packed ids, changes nothing. */
  write(rows: PackedRows): void;
}

export interface RetireSettings {
  /** Idle this long (stream time) with no lookup pending, an id is packed. */
  afterSeconds: number;
  /** Ids kept as they are, whatever their age. */
  keep: number;
  /** Entries between two looks for idle ids. */
  every: number;
}

/**
 * Request ids are packed soon after they fall idle: one packed while it is still young
 * dies in V8's young generation, where it costs nearly nothing, instead of being copied
 * there twice, promoted, and collected by a full collection. At 15 minutes idle, 4,096
 * kept and a look every 65,536 entries, *short* (1 GB, 122,000 ids) promoted 70-75 MB on
 * the analysing thread and spent 300 ms there collecting; at these, 32 MB and 110 ms. A
 * session refreshes about once a minute, so an id idle for 2 minutes has mostly ended;
 * one that comes back is unpacked exactly (*busy* unpacked none). A look walks the few
 * ids still unpacked.
 */
const RETIRE: RetireSettings = { afterSeconds: 120, keep: 64, every: 512 };

/** The counts metrics are made of: running while reading, final in the summary. */
export interface Counts {
  lines: number;
  entries: number;
  refreshPairs: number;
  refreshLookups: { local: number; remote: number };
  requestIds: number;
  /** Violations reported, by rule (all of them, --quiet or not). */
  violationsByRule: Record<RuleId, number>;
  /** Entries per diagnosis seen so far. */
  diagnosisEntries: Partial<Record<DiagnosisId, number>>;
}

export interface Summary {
  files: string[];
  lines: number;
  entries: number;
  dbErrors: number;
  otherEntries: number;
  malformedEntries: number;
  refreshLookups: { local: number; remote: number };
  refreshPairs: number;
  violations: { error: number; warning: number };
  /** Entries longer than the parser keeps (1 MiB): their middle was not read. */
  truncatedEntries: number;
  /** Where the first of them are. */
  truncatedAt: { file: string; line: number }[];
  requestIds: RequestIdList;
  signatures: Signature[];
  /** Earliest and latest entry of the stream, or null when it had none. */
  span: { first: string; last: string } | null;
  timeline: TimelineSeries | null;
  /** Refresh gaps longer than the gap setting: worth knowing, not rule violations. The first NOTES_KEPT. */
  notes: GapNote[];
  /** How many there were in all. */
  notesTotal: number;
  diagnosis: Diagnosis[];
  /** The filters in force, or null. */
  selection: Selection | null;
  /** Violations reported, by rule (all of them, --quiet or not). */
  violationsByRule: Record<RuleId, number>;
}

/** Places of cut entries kept for the report. */
const TRUNCATED_LISTED = 10;
const DEFAULT_GAP_SECONDS = 300;
/** Notes kept for the report; the rest are counted (a busy server can have thousands). */
export const NOTES_KEPT = 1000;
/** Packed ids' states kept for new ids: more than a busy server's sessions open at once. */
const SPARE_STATES = 1024;
/** Request ids, in the order of the report, whose refreshes the timeline charts. */
export const REFRESH_ROWS = 100;

/** A duration for a message: `17 s`, `59 min 40 s`, `3 h 2 min`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

export class Analyser {
  private readonly files: string[] = [];
  private lines = 0;
  private dbErrors = 0;
  private otherEntries = 0;
  private malformedEntries = 0;
  private local = 0;
  private remote = 0;
  private refreshPairs = 0;
  private truncatedEntries = 0;
  private readonly truncatedAt: { file: string; line: number }[] = [];
  private readonly violations = { error: 0, warning: 0 };
  private readonly byRule = Object.fromEntries(RULE_IDS.map((id) => [id, 0])) as Record<RuleId, number>;
  private readonly ids = new Map<string, IdState>();
  /** Ids in the order of their first selected entry: the order of the report's rows. */
  private readonly idOrder: (IdState | number)[] = [];
  /** Request ids long idle, packed (a number in idOrder is a place there). */
  private readonly retired = new RetiredIds();
  /**
   * The diagnoses' marks of each packed id, by its place in idOrder: the diagnosis reads
   * every id's marks once the stream ends, and read from the packed bytes that took
   * 15-30 ms of *short* (117,000 ids) after the reading, with the other core idle. It
   * starts small, so that the primer's packed ids (sessionsPrimer) grow it: a growth first
   * met during the reading threw away the compiled look for idle ids.
   */
  private packedMarks = new Int32Array(64);
  private readonly retire: RetireSettings;
  private entriesSinceRetiring = 0;
  /** Null once run (or with no report to warm). */
  private warming: RowWarming | null;
  /** The latest instant of the stream. */
  private now = -Infinity;
  /** idOrder, read in place: what rows, the timeline and the diagnosis need. */
  private readonly order = {
    get length(): number {
      return this.analyser.idOrder.length;
    },
    analyser: this as Analyser,
    id(i: number): string {
      const s = this.analyser.idOrder[i];
      return typeof s === 'number' ? this.analyser.retired.idAt(s) : s.id;
    },
    row(i: number) {
      const s = this.analyser.idOrder[i];
      return typeof s === 'number' ? this.analyser.retired.rowAt(s) : s.row();
    },
    /** Every row packed, for a writer of bytes: once the stream is finished (null before). */
    packed(): PackedRows | null {
      const ids = this.analyser.idOrder;
      const places = new Int32Array(ids.length);
      for (let i = 0; i < ids.length; i++) {
        const at = ids[i];
        if (typeof at !== 'number') return null;
        places[i] = at;
      }
      return { rows: this.analyser.retired, places };
    },
  };
  private readonly signatures = new SignatureCounter();
  private readonly pairing: Pairing;
  private readonly alphabet: Alphabet;
  private readonly selection: Selection | null;
  private readonly timeline: Timeline;
  private readonly diagnosis = new DiagnosisCollector();
  private readonly notes: GapNote[] = [];
  private notesTotal = 0;
  private readonly gapSeconds: number;
  /** The well-formed entry before the current one, for `chronological`. */
  private hasPrevious = false;
  private previousInstant = 0;
  private previousFileIndex = 0;
  private previousLine = 0;
  /** Earliest and latest selected entry. */
  private first: Moment | null = null;
  private last: Moment | null = null;
  /** Whether the entry being handled is selected. */
  private current = true;
  /** Pairing slots of lookups without a request id: by session segment, and the one of neither. */
  private readonly segmentSlots = new Map<string, Slot>();
  private readonly noKeySlot = new Slot();
  /** States of packed ids, taken again for new ones (see IdState.reuse); at most SPARE_STATES. */
  private readonly spare: IdState[] = [];
  /** The request id of the entry before, and its state: ids come in runs. */
  private lastId = NO_STRING;
  private lastIdState: IdState | null = null;

  constructor(
    private readonly settings: AnalyseSettings,
    private readonly onViolation: (violation: Violation) => void,
  ) {
    this.alphabet = ALPHABETS[settings.requestIdAlphabet ?? 'hex'];
    this.gapSeconds = settings.gapSeconds ?? DEFAULT_GAP_SECONDS;
    this.retire = settings.retire ?? RETIRE;
    this.warming = settings.warmRows ?? null;
    this.timeline = new Timeline(settings.timelineRuns);
    const selection = settings.selection ?? null;
    this.selection = selection === null || isEmptySelection(selection) ? null : selection;
    this.pairing = new Pairing(settings.pairWindow, {
      incomplete: (p) => this.incomplete(p),
      pair: (p, l) => this.pair(p, l),
    });
  }

  /** An input joins the stream; returns its place in it. */
  addFile(name: string): number {
    this.files.push(name);
    return this.files.length - 1;
  }

  /** Lines read, for the summary. */
  countLines(lines: number): void {
    this.lines += lines;
  }

  orphanRun(fileIndex: number, line: number): void {
    // Text before the first entry has no time, id or segment: any filter leaves it out.
    if (this.selection === null) this.report('malformed', fileIndex, line, null, 'text before the first entry of the file');
  }

  /** The next entry of the stream. It is not kept: the caller may reuse it. */
  entry(e: Entry): void {
    const selected = (this.current = selects(this.selection, e.stamped ? e.instant : null, e.requestId, e.segment));
    if (e.truncated && selected) {
      this.truncatedEntries++;
      if (this.truncatedAt.length < TRUNCATED_LISTED) this.truncatedAt.push({ file: this.files[e.fileIndex], line: e.line });
    }
    if (e.problem !== null) {
      if (!selected) return;
      this.malformedEntries++;
      this.report('malformed', e.fileIndex, e.line, e.requestId, e.problem);
      if (e.stamped && e.kind === 'DB') this.diagnosis.malformedDb(e, e.requestId === null ? null : (this.known(e.requestId) ?? null));
      return;
    }
    const instant = e.instant;
    this.pairing.advance(instant);
    if (instant > this.now) this.now = instant;
    if (++this.entriesSinceRetiring >= this.retire.every) this.retireIdle();

    if (this.hasPrevious && instant < this.previousInstant) {
      this.report(
        'chronological',
        e.fileIndex,
        e.line,
        e.requestId,
        `entry is ${duration(this.previousInstant - instant)} earlier than the entry before it (${this.place(this.previousFileIndex, this.previousLine, e.fileIndex)})`,
      );
    }
    this.hasPrevious = true;
    this.previousInstant = instant;
    this.previousFileIndex = e.fileIndex;
    this.previousLine = e.line;

    if (selected) {
      if (this.first === null) {
        this.first = new Moment(instant, e.offset, e.negative);
        this.last = new Moment(instant, e.offset, e.negative);
      } else if (instant < this.first.instant) {
        this.first.set(instant, e.offset, e.negative);
      } else if (instant > this.last!.instant) {
        this.last!.set(instant, e.offset, e.negative);
      }
      if (e.signature !== null) {
        this.dbErrors++;
        this.signatures.addDb(e.signature);
      } else {
        this.otherEntries++;
        this.signatures.addKind(e.kind);
      }
      this.timeline.entry(instant, e.offset, e.negative, e.kind);
    }
    const id = e.requestId !== null ? this.countId(e, selected) : null;
    if (selected) this.diagnosis.entry(e, id);

    if (e.side !== Side.None) {
      if (selected) {
        if (e.side === Side.Local) this.local++;
        else this.remote++;
      }
      // The entry is the lookup (it has a lookup's fields), copied by the pairing if kept.
      this.pairing.lookup(e, id ?? this.segmentSlot(e.segment));
    }
  }

  /** The running counts, without deciding anything: what live metrics read on a scrape. */
  counts(): Counts {
    return {
      lines: this.lines,
      entries: this.dbErrors + this.otherEntries + this.malformedEntries,
      refreshPairs: this.refreshPairs,
      refreshLookups: { local: this.local, remote: this.remote },
      requestIds: this.idOrder.length,
      violationsByRule: { ...this.byRule },
      diagnosisEntries: this.diagnosis.entriesById(),
    };
  }

  /** End of the stream: pending lookups are incomplete; returns the summary. */
  finish(): Summary {
    this.pairing.finish();
    // Every listed id packed first: the diagnosis then reads their marks from one array
    // (packedMarks). Read id by id from objects and packed places, the marks of *short*'s
    // 117,000 ids took 8-10 ms after the reading, in code run once and so never compiled.
    this.packListed();
    const requestIds = new RequestIdList(this.order);
    const notes = [...this.notes].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    const summary: Summary = {
      files: this.files,
      lines: this.lines,
      entries: this.dbErrors + this.otherEntries + this.malformedEntries,
      dbErrors: this.dbErrors,
      otherEntries: this.otherEntries,
      malformedEntries: this.malformedEntries,
      refreshLookups: { local: this.local, remote: this.remote },
      refreshPairs: this.refreshPairs,
      violations: { ...this.violations },
      truncatedEntries: this.truncatedEntries,
      truncatedAt: this.truncatedAt,
      requestIds,
      signatures: this.signatures.rows(),
      span: this.first && this.last ? { first: this.first.iso(), last: this.last.iso() } : null,
      timeline: this.timeline.series(Array.from({ length: Math.min(REFRESH_ROWS, this.idOrder.length) }, (_, i) => this.order.id(i))),
      notes,
      notesTotal: this.notesTotal,
      diagnosis: this.diagnosis.result(this.order, this.packedMarks),
      violationsByRule: { ...this.byRule },
      selection: this.selection,
    };
    return summary;
  }

  /**
   * Packs the ids still in objects: every row of the report is then read one way, and
   * written as bytes (row-bytes.ts), and every listed id's marks are in packedMarks.
   */
  private packListed(): void {
    for (const s of this.ids.values()) if (s.order >= 0) this.pack(s);
    this.lastId = NO_STRING;
    this.lastIdState = null;
  }

  private countId(e: Entry, selected: boolean): IdState {
    const id = e.requestId as string;
    // Compared once: two ids of one length that are not one string are compared by their
    // characters, in a call (V8's StringEqual), and sessions interleave, so most entries'
    // ids are not the last one's.
    const same = id === this.lastId;
    let s = same ? this.lastIdState : this.known(id);
    if (s === undefined || s === null) {
      s = this.spare.pop();
      if (s === undefined) s = new IdState(id);
      else s.reuse(id);
      this.ids.set(id, s);
      if (!this.alphabet.accepts(id)) {
        this.report('request-id-format', e.fileIndex, e.line, id, `request id "${id}" is not ${this.alphabet.description}`);
      }
    }
    // Stored only when the id changes: the analyser is in V8's old space, an id and its
    // state mostly young, and each such store called the write barrier's stub.
    if (!same) {
      this.lastId = id;
      this.lastIdState = s;
    }
    s.seenAt = this.now;
    const segment = e.segment;
    if (segment !== null && !s.hasSegment(segment)) {
      if (s.segment !== null) {
        this.report(
          'session-consistency',
          e.fileIndex,
          e.line,
          id,
          `request id "${id}" shows up with session segment ${segment}, first seen with ${s.segment}`,
        );
      }
      s.addSegment(segment);
    }
    if (selected) {
      if (s.seen(e.instant, e.offset, e.negative)) {
        s.order = this.idOrder.length;
        this.idOrder.push(s);
        // The timeline keeps a refresh row for the first ids only: one per id would grow
        // without bound on a busy server (the report shows the first ones anyway).
        if (this.idOrder.length <= REFRESH_ROWS) s.refreshBuckets = this.timeline.refreshesOf(id);
        if (this.selection !== null) s.selectedSegments = [];
      }
      s.entries++;
      if (segment !== null && s.selectedSegments !== null && !s.selectedSegments.includes(segment)) s.selectedSegments.push(segment);
    }
    return s;
  }

  /** The state of an id seen before: active, or unpacked from the retired ones. */
  private known(id: string): IdState | undefined {
    const s = this.ids.get(id);
    if (s !== undefined) return s;
    const back = this.retired.size > 0 ? this.retired.take(id) : null;
    if (back === null) return undefined;
    back.state.order = back.order;
    if (back.order >= 0) this.idOrder[back.order] = back.state;
    this.ids.set(id, back.state);
    return back.state;
  }

  /**
   * Packs the ids idle for a while, with no lookup pending: a long follow keeps only the
   * sessions at hand in objects. The first ids (the timeline's rows) stay as they are.
   */
  private retireIdle(): void {
    this.entriesSinceRetiring = 0;
    if (this.ids.size <= this.retire.keep) return;
    // Values, not [id, state] pairs: a pair would be made for each of thousands of ids.
    for (const s of this.ids.values()) {
      if (s.pending !== null || s === this.lastIdState || (s.order >= 0 && s.order < REFRESH_ROWS) || this.now - s.seenAt <= this.retire.afterSeconds) continue;
      this.pack(s);
      if (this.spare.length < SPARE_STATES) this.spare.push(s);
    }
    if (this.warming !== null && this.retired.size >= this.warming.after) this.warmRows(this.warming);
  }

  /** Runs the report's row writer over listed packed ids spread over those packed so far, once. */
  private warmRows(w: RowWarming): void {
    this.warming = null;
    // Packed ids spread over all listed so far, not the first ones: rows of several days
    // and of every kind (the first thousand of a log came from its first hours), so that
    // no row of the report is of a kind the compiled writer has not met.
    const packed: number[] = [];
    for (let i = 0; i < this.idOrder.length; i++) {
      const at = this.idOrder[i];
      if (typeof at === 'number') packed.push(at);
    }
    const step = Math.max(1, packed.length / w.rows);
    const places = new Int32Array(Math.min(w.rows, packed.length));
    for (let k = 0; k < places.length; k++) places[k] = packed[Math.floor(k * step)];
    w.write({ rows: this.retired, places });
  }

  /** Moves `s` from its objects into the packed ids; its place in the order then says where it is. */
  private pack(s: IdState): void {
    const at = this.retired.put(s, s.order);
    if (s.order >= 0) {
      this.idOrder[s.order] = at;
      if (s.order >= this.packedMarks.length) {
        const more = new Int32Array(Math.max(2 * this.packedMarks.length, s.order + 1));
        more.set(this.packedMarks);
        this.packedMarks = more;
      }
      this.packedMarks[s.order] = s.diagnosed;
    }
    this.ids.delete(s.id);
  }

  /** The pairing slot of lookups without a request id. */
  private segmentSlot(segment: string | null): Slot {
    if (segment === null) return this.noKeySlot;
    let slot = this.segmentSlots.get(segment);
    if (slot === undefined) this.segmentSlots.set(segment, (slot = new Slot()));
    return slot;
  }

  private idState(id: string): IdState | undefined {
    return id === this.lastId && this.lastIdState !== null ? this.lastIdState : this.known(id);
  }

  /** A refresh seen through its first lookup: for the cadence of its request id. */
  private refresh(p: Lookup): void {
    if (p.requestId === null || !selects(this.selection, p.instant, p.requestId, p.segment)) return;
    const s = this.idState(p.requestId);
    if (s === undefined || s.firstInstant !== s.firstInstant) return;
    if (s.refreshBuckets !== null) this.timeline.refresh(s.refreshBuckets, p.instant);
    const gap = s.add(p.instant, this.gapSeconds);
    if (gap !== null && this.notesTotal++ < NOTES_KEPT) this.notes.push(gapNote(s.id, gap.from, gap.seconds, s.firstOffset, s.firstNegative, duration));
  }

  private pair(p: Lookup, l: Lookup): void {
    this.refresh(p);
    const selected = selects(this.selection, l.instant, l.requestId, l.segment);
    if (selected) {
      this.refreshPairs++;
      if (l.requestId !== null) {
        const s = this.idState(l.requestId);
        if (s) s.refreshPairs++;
      }
    }
    // Messages are made only for violations, and without closures: a function that
    // holds one gets a context allocated on every call, and pairs come by the million.
    if (p.side === Side.Remote && this.wanted('pair-order', selected)) {
      this.emit('pair-order', l.fileIndex, l.line, l.requestId, `remote-sync lookup (${this.place(p.fileIndex, p.line, l.fileIndex)}) came before the local lookup`);
    }
    if (p.instant !== l.instant && this.wanted('pair-same-second', selected)) {
      this.emit(
        'pair-same-second',
        l.fileIndex,
        l.line,
        l.requestId,
        `lookups of one refresh pair are ${duration(Math.abs(l.instant - p.instant))} apart (partner at ${this.place(p.fileIndex, p.line, l.fileIndex)})`,
      );
    }
  }

  private incomplete(p: Lookup): void {
    this.refresh(p);
    if (!this.wanted('pair-incomplete', selects(this.selection, p.instant, p.requestId, p.segment))) return;
    const message = p.side === Side.Local ? 'local lookup has no remote-sync partner' : 'remote-sync lookup has no local partner';
    this.emit('pair-incomplete', p.fileIndex, p.line, p.requestId, message);
  }

  /** `line 117`, or `errors.log.1:117` when it is in another file than the violation. */
  private place(fileIndex: number, line: number, fromFileIndex: number): string {
    return fileIndex === fromFileIndex ? `line ${line}` : `${this.files[fileIndex]}:${line}`;
  }

  /** Reports a violation at the entry being handled, when that entry is selected. */
  private report(rule: RuleId, fileIndex: number, line: number, requestId: string | null, message: string): void {
    if (this.wanted(rule, this.current)) this.emit(rule, fileIndex, line, requestId, message);
  }

  /** Whether a violation of `rule` at a place (selected or not) is reported. */
  private wanted(rule: RuleId, selected: boolean): boolean {
    return selected && this.settings.severities[rule] !== 'off';
  }

  private emit(rule: RuleId, fileIndex: number, line: number, requestId: string | null, message: string): void {
    const severity = this.settings.severities[rule] as Level;
    this.violations[severity]++;
    this.byRule[rule]++;
    this.onViolation({ rule, severity, fileIndex, file: this.files[fileIndex], line, requestId, message });
  }
}
