// Consumes entries one at a time, applies the rules, and emits each finding as soon as it
// is decided; at the end it gives the summary. Holds no list of entries or findings.

import type { Entry } from '../parse/entry.js';
import { Side } from '../parse/table.js';
import { Moment, SignatureCounter, type IdState, type RequestIdRow, type Signature } from './aggregates.js';
import type { Finding } from './finding.js';
import { Pairing, pairingKey, type Lookup } from './pairing.js';
import type { RuleId, Severities } from './rules.js';
import { ALPHABETS, type Alphabet, type AlphabetName } from './alphabet.js';

export interface AnalyseSettings {
  /** Pairing window W in seconds. */
  pairWindow: number;
  severities: Severities;
  /** What `request-id-format` accepts (default: the SPEC's hex). */
  requestIdAlphabet?: AlphabetName;
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
  requestIds: RequestIdRow[];
  signatures: Signature[];
  /** Earliest and latest entry of the stream, or null when it had none. */
  span: { first: string; last: string } | null;
}

/** Places of cut entries kept for the report. */
const TRUNCATED_LISTED = 10;

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
  private readonly ids = new Map<string, IdState>();
  private readonly signatures = new SignatureCounter();
  private readonly pairing: Pairing;
  private readonly alphabet: Alphabet;
  /** The well-formed entry before the current one, for `chronological`. */
  private hasPrevious = false;
  private previousInstant = 0;
  private previousFileIndex = 0;
  private previousLine = 0;
  /** Earliest and latest entry of the stream. */
  private first: Moment | null = null;
  private last: Moment | null = null;
  /** Filled for each lookup and handed to the pairing, which copies what it keeps. */
  private readonly scratch: Lookup = { key: '', side: Side.None, instant: 0, fileIndex: 0, line: 0, requestId: null };
  /** The request id of the entry before, and its state: ids come in runs. */
  private lastId: string | null = null;
  private lastIdState: IdState | null = null;

  constructor(
    private readonly settings: AnalyseSettings,
    private readonly onFinding: (finding: Finding) => void,
  ) {
    this.alphabet = ALPHABETS[settings.requestIdAlphabet ?? 'hex'];
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
    this.report('malformed', fileIndex, line, null, 'text before the first entry of the file');
  }

  /** The next entry of the stream. It is not kept: the caller may reuse it. */
  entry(e: Entry): void {
    if (e.cut) {
      this.truncatedEntries++;
      if (this.truncatedAt.length < TRUNCATED_LISTED) this.truncatedAt.push({ file: this.files[e.fileIndex], line: e.line });
    }
    if (e.problem !== null) {
      this.malformedEntries++;
      this.report('malformed', e.fileIndex, e.line, e.requestId, e.problem);
      return;
    }
    const instant = e.instant;
    this.pairing.advance(instant);

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
    const id = e.requestId !== null ? this.countId(e) : null;

    if (e.side !== Side.None) {
      if (e.side === Side.Local) this.local++;
      else this.remote++;
      const lookup = this.scratch;
      lookup.key = id !== null ? id.key : pairingKey(null, e.segment);
      lookup.side = e.side;
      lookup.instant = instant;
      lookup.fileIndex = e.fileIndex;
      lookup.line = e.line;
      lookup.requestId = e.requestId;
      this.pairing.lookup(lookup);
    }
  }

  /** End of the stream: pending lookups are incomplete; returns the summary. */
  finish(): Summary {
    this.pairing.finish();
    const requestIds: RequestIdRow[] = [];
    for (const s of this.ids.values()) {
      requestIds.push({
        id: s.id,
        sessionSegments: s.segments,
        entries: s.entries,
        refreshPairs: s.refreshPairs,
        first: s.first.iso(),
        last: s.last.iso(),
      });
    }
    return {
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
    };
  }

  private countId(e: Entry): IdState {
    const id = e.requestId as string;
    let s = id === this.lastId ? this.lastIdState : this.ids.get(id);
    if (s === undefined || s === null) {
      s = {
        id,
        key: pairingKey(id, null),
        segments: [],
        entries: 0,
        refreshPairs: 0,
        first: new Moment(e.instant, e.offset, e.negative),
        last: new Moment(e.instant, e.offset, e.negative),
      };
      this.ids.set(id, s);
      if (!this.alphabet.pattern.test(id)) {
        this.report('request-id-format', e.fileIndex, e.line, id, `request id "${id}" is not ${this.alphabet.description}`);
      }
    }
    this.lastId = id;
    this.lastIdState = s;
    s.entries++;
    if (e.instant < s.first.instant) s.first.set(e.instant, e.offset, e.negative);
    else if (e.instant > s.last.instant) s.last.set(e.instant, e.offset, e.negative);
    const segment = e.segment;
    if (segment !== null && !s.segments.includes(segment)) {
      if (s.segments.length > 0) {
        this.report(
          'session-consistency',
          e.fileIndex,
          e.line,
          id,
          `request id "${id}" shows up with session segment ${segment}, first seen with ${s.segments[0]}`,
        );
      }
      s.segments.push(segment);
    }
    return s;
  }

  private pair(p: Lookup, l: Lookup): void {
    this.refreshPairs++;
    if (l.requestId !== null) {
      const s = l.requestId === this.lastId ? this.lastIdState : this.ids.get(l.requestId);
      if (s) s.refreshPairs++;
    }
    // Messages are made only for violations: most pairs are fine.
    if (p.side === Side.Remote) {
      this.report('pair-order', l.fileIndex, l.line, l.requestId, `remote-sync lookup (${this.place(p.fileIndex, p.line, l.fileIndex)}) came before the local lookup`);
    }
    if (p.instant !== l.instant) {
      const apart = duration(Math.abs(l.instant - p.instant));
      this.report(
        'pair-same-second',
        l.fileIndex,
        l.line,
        l.requestId,
        `lookups of one refresh pair are ${apart} apart (partner at ${this.place(p.fileIndex, p.line, l.fileIndex)})`,
      );
    }
  }

  private incomplete(p: Lookup): void {
    const message =
      p.side === Side.Local
        ? 'local lookup has no remote-sync partner'
        : 'remote-sync lookup has no local partner';
    this.report('pair-incomplete', p.fileIndex, p.line, p.requestId, message);
  }

  /** `line 117`, or `errors.log.1:117` when it is in another file than the finding. */
  private place(fileIndex: number, line: number, fromFileIndex: number): string {
    return fileIndex === fromFileIndex ? `line ${line}` : `${this.files[fileIndex]}:${line}`;
  }

  private report(rule: RuleId, fileIndex: number, line: number, requestId: string | null, message: string): void {
    const severity = this.settings.severities[rule];
    if (severity === 'off') return;
    this.violations[severity]++;
    this.onFinding({ rule, severity, fileIndex, file: this.files[fileIndex], line, requestId, message });
  }
}
