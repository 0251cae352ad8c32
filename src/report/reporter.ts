// The one seam of every report format: a Reporter turns violations and a summary into
// text, given a context that carries the settings, the rules and the colour. Streaming is
// decided here, not by the runner: a reporter with `violation` writes each violation as it
// is decided, when `streams` says so for this output.

import type { ChalkInstance } from 'chalk';
import type { AlphabetName } from '../analyse/alphabet.js';
import type { Counts, RowWarming, Summary } from '../analyse/analyser.js';
import type { Violation } from '../analyse/violation.js';
import type { Severities } from '../analyse/rules.js';
import type { RunFacts } from './metrics.js';
import type { RepoPaths } from './paths.js';

/**
 * Characters of a report gathered into one write by stdout's stream or into a file: with
 * a little more, still within a pipe's 64 KiB, so a reader that keeps up takes each write
 * whole, and the stream is not made to wait for stdout to drain (*short*'s request-id
 * rows to a pipe read by `cat`, written so: 336 ms in writes of 48 KiB, 375 in writes of
 * 64 KiB and a row, 8 runs each). Into a pipe, see POOL_WRITE_PIECE.
 */
export const WRITE_PIECE = 48 << 10;

/**
 * A write into a pipe or a socket from libuv's pool (io.ts), while this thread makes the
 * next: *short*'s report read by another process, ten interleaved runs each, from its
 * first byte to the exit, into a socket (as Node starts a child): 98.5 ms in writes of 64
 * KiB, 80 in 160, 72-73 in 512, 74.5 in 1 MiB, 76.5 in 2 MiB (written by stdout's own
 * stream, 160 KiB was best: 85.5-87); into a pipe read by `cat`, the whole run 1,343 ms
 * in writes of 48 KiB (either way), 1,323 in 512 KiB.
 */
export const POOL_WRITE_PIECE = 512 << 10;

/** What every reporter may read, violation by violation and at the end. */
export interface ReportSettings {
  severities: Severities;
  /** What request-id-format accepts. */
  requestIdAlphabet: AlphabetName;
  /** Coloured for a terminal; plain for a file. */
  chalk: ChalkInstance;
  /** List every violation and request id (text). */
  all: boolean;
  /** Columns the text may use. */
  width: number;
  /** Where CI formats' paths are relative to. */
  paths: RepoPaths;
  /** The host the report speaks for. */
  host: string;
  /** What the metrics' `log` label says: --log-name, else the inputs as given. */
  logName: string;
  env: NodeJS.ProcessEnv;
}

export interface ReportContext extends ReportSettings {
  summary: Summary;
  /** Every violation shown, in stream order (also those already streamed). */
  violations: readonly Violation[];
  /** Whether this output already wrote each violation as it was decided. */
  streamed: boolean;
  /** When the run ended, how long it took, whether it could read every input. */
  run: RunFacts;
  /** The first lines of a violation's entry, where the inputs can be read again (files, not stdin). */
  excerpt?: (v: Violation) => string[];
  /** A fleet report (merge): each host's counts, for the reporters that speak of hosts. */
  fleet?: { host: string; counts: Counts }[];
  /** Bytes of a write where the report goes (WRITE_PIECE when not given). */
  pieceBytes?: number;
}

/** A file written beside the report (GitHub's step summary). */
export interface BesideFile {
  path: string;
  text: string;
  /** What it is, for an error message. */
  what: string;
}

/**
 * A piece of a report: text, or UTF-8 bytes lent by the reporter, good until the piece
 * after the next is asked for (the writer writes a piece out while the next is made). The
 * JSON request-id list is written into two buffers in turn, each written out as it is:
 * made into text and back into bytes by the write, *short*'s list (43 MB) kept the report
 * 30 ms longer, with the other core idle.
 */
export type ReportPiece = string | Uint8Array;

/** A piece as text, read at once (a lent one is written over later). */
export function pieceText(piece: ReportPiece): string {
  return typeof piece === 'string' ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('utf8');
}

/** A report whole, as text: each lent piece read as it comes. */
export function reportText(report: string | Iterable<ReportPiece>): string {
  if (typeof report === 'string') return report;
  let text = '';
  for (const piece of report) text += pieceText(piece);
  return text;
}

export interface Reporter {
  /** One line for --help. */
  description: string;
  /** Written to a file, it is written whole or not at all: a temporary file, then a rename. */
  atomic?: boolean;
  /** Whether violations go out as they are decided, for a live input or not, to stdout or a file. */
  streams?(live: boolean, toStdout: boolean): boolean;
  /** The text for one violation, the moment it is decided (streaming only). */
  violation?(f: Violation, settings: ReportSettings): string;
  /** The report (or what is left of it after streaming), at the end: whole, or in pieces. */
  end(ctx: ReportContext): string | Iterable<ReportPiece>;
  /** Files appended to beside the report. */
  beside?(ctx: ReportContext): BesideFile[];
  /** Its request-id rows' writer, to be run once while a long log is read (see RowWarming). */
  warmRows?: RowWarming;
}
