// Where reports go: `--format <format>[=<file>]` (and `-o <file>`), one at most on stdout.
// A report file is opened before anything is read, so that a bad path stops the run at
// once; an error writing one is said in words.

import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { OutputError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { FORMATS, isFormat, REPORTERS, type Format } from '../report/registry.js';
import { pieceText, WRITE_PIECE, type Reporter } from '../report/reporter.js';
import { didYouMean } from '../suggest.js';

/** A report: its format, and the file it goes to (null: stdout). */
export interface OutputSpec {
  format: Format;
  path: string | null;
}

/** `sarif` or `sarif=report.sarif`, as `--format` and the config file take it. */
export function parseOutputSpec(text: string): OutputSpec {
  const eq = text.indexOf('=');
  const format = eq < 0 ? text : text.slice(0, eq);
  if (!isFormat(format)) throw new UsageError(`unknown format "${format}"${didYouMean(format, FORMATS)} (${FORMATS.join(', ')})`);
  const path = eq < 0 ? null : text.slice(eq + 1);
  if (path === '') throw new UsageError(`--format ${format}=: name the file after =`);
  return { format, path: path === '-' ? null : path };
}

/** `-o FILE` (ESLint's spelling): the one report meant for stdout goes to the file instead. */
export function withOutputFile(outputs: readonly OutputSpec[], file: string | undefined): OutputSpec[] {
  if (file === undefined) return [...outputs];
  if (outputs.filter((spec) => spec.path === null).length !== 1) throw new UsageError('-o names the file of the one report on stdout; with several formats, use --format <format>=<file>');
  return outputs.map((spec) => (spec.path === null ? { ...spec, path: file } : spec));
}

/** Checks a list of reports: one at most on stdout, and no file named twice. */
export function checkOutputs(outputs: readonly OutputSpec[]): void {
  if (outputs.filter((o) => o.path === null).length > 1) {
    throw new UsageError('only one format can go to stdout; send the others to files with --format <format>=<file>');
  }
  const paths = outputs.flatMap((o) => (o.path === null ? [] : [o.path]));
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice !== undefined) throw new UsageError(`two reports would be written to ${twice}`);
}

/** Why a file could not be written, in words. */
export function writeReason(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    default:
      return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

/** An open report: where it goes, and whether it streams. */
export interface Output {
  spec: OutputSpec;
  reporter: Reporter;
  streams: boolean;
  write(text: string): void;
  /** Writes bytes a reporter lent (ReportPiece); resolves once they have left the process, so that they may be written over. */
  writeLent(bytes: Uint8Array): Promise<void>;
  /** Resolves when what was written has left the process (at once for a file: written synchronously). */
  drained(): Promise<void>;
  /** Done: `complete` false when the run failed before the report was whole. */
  close(complete?: boolean): void;
  /** Bytes of a write here: see Io.outPieceBytes. */
  pieceBytes: number;
}

const written = () => Promise.resolve();

export function openOutput(spec: OutputSpec, io: Pick<Io, 'out' | 'outDrained' | 'outLent' | 'outPieceBytes'>, live: boolean): Output {
  const reporter = REPORTERS[spec.format];
  const streams = reporter.violation !== undefined && (reporter.streams?.(live, spec.path === null) ?? false);
  if (spec.path === null) {
    const drained = io.outDrained ?? written;
    // Without a way to know the bytes have left, as text, then the wait for drain.
    const writeLent = io.outLent ?? ((bytes: Uint8Array) => (io.out(pieceText(bytes)), drained()));
    return { spec, reporter, streams, write: io.out, writeLent, drained, close: () => {}, pieceBytes: io.outPieceBytes ?? WRITE_PIECE };
  }
  const path = spec.path;
  // An atomic report is written beside its file, then renamed over it.
  const temp = reporter.atomic ? `${path}.${process.pid}.tmp` : path;
  let fd: number;
  try {
    fd = openSync(temp, 'w');
  } catch (err) {
    throw new OutputError(`cannot write ${path}: ${writeReason(err)}`);
  }
  return {
    spec,
    reporter,
    streams,
    write: (text) => {
      try {
        writeSync(fd, text);
      } catch (err) {
        throw new OutputError(`cannot write ${path}: ${writeReason(err)}`);
      }
    },
    // Written synchronously: gone from the process on return.
    writeLent: (bytes) => {
      try {
        writeSync(fd, bytes);
      } catch (err) {
        throw new OutputError(`cannot write ${path}: ${writeReason(err)}`);
      }
      return written();
    },
    drained: written,
    pieceBytes: WRITE_PIECE,
    close: (complete = true) => {
      closeSync(fd);
      if (temp === path) return;
      if (!complete) {
        rmSync(temp, { force: true });
        return;
      }
      try {
        renameSync(temp, path);
      } catch (err) {
        rmSync(temp, { force: true });
        throw new OutputError(`cannot write ${path}: ${writeReason(err)}`);
      }
    },
  };
}
