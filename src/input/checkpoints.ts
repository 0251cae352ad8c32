// --state FILE: where following stood, per followed file, so that a restarted follower
// (a service restart, a reboot) goes on exactly there: no entry missed while it was down,
// none read twice. Written atomically (a temporary file in the same directory, then a
// rename), every few seconds and at exit, so that a crash leaves the last whole state.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { Checkpoint } from './follow.js';
import { reason } from './source.js';

const FORMAT = 'webmail-log state';
const VERSION = 1;
/** How often a moving checkpoint is written. */
const EVERY_MS = 2000;

interface StateFile {
  format: string;
  version: number;
  files: Record<string, Checkpoint>;
}

function isCheckpoint(v: unknown): v is Checkpoint {
  const c = v as Checkpoint;
  return typeof c === 'object' && c !== null && typeof c.fingerprint === 'string' && Number.isInteger(c.offset) && c.offset >= 0 && Number.isInteger(c.line) && c.line >= 0;
}

export class CheckpointStore {
  private readonly files = new Map<string, Checkpoint>();
  private dirty = false;
  private savedAt = 0;
  private timer: NodeJS.Timeout | null = null;

  private constructor(private readonly path: string) {}

  /** The state in `path`, or an empty one when the file does not exist yet. */
  static load(path: string): CheckpointStore {
    const store = new CheckpointStore(path);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return store;
      throw new InputError(`cannot read state ${path}: ${reason(err)}`);
    }
    let doc: StateFile;
    try {
      doc = JSON.parse(text);
    } catch {
      throw new InputError(`${path} is not a webmail-log state file (not JSON)`);
    }
    if (doc?.format !== FORMAT || doc.version !== VERSION || typeof doc.files !== 'object' || doc.files === null) {
      throw new InputError(`${path} is not a webmail-log state file of version ${VERSION}`);
    }
    for (const [file, c] of Object.entries(doc.files)) if (isCheckpoint(c)) store.files.set(file, c);
    return store;
  }

  /** The checkpoint of a followed file (by its absolute path), or null. */
  get(file: string): Checkpoint | null {
    return this.files.get(resolve(file)) ?? null;
  }

  /** A followed file's reading moved; written out every few seconds. */
  set(file: string, c: Checkpoint): void {
    this.files.set(resolve(file), c);
    this.dirty = true;
    const wait = EVERY_MS - (Date.now() - this.savedAt);
    if (wait <= 0) this.save();
    // A checkpoint that moved last is written too, a little later: the file goes quiet.
    else this.timer ??= setTimeout(() => this.save(), wait).unref();
  }

  /** Writes the state now (at exit), atomically. */
  save(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return;
    const doc: StateFile = { format: FORMAT, version: VERSION, files: Object.fromEntries(this.files) };
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(resolve(this.path)), { recursive: true });
      writeFileSync(tmp, JSON.stringify(doc, null, 2) + '\n');
      renameSync(tmp, this.path);
    } catch (err) {
      throw new InputError(`cannot write state ${this.path}: ${reason(err)}`);
    }
    this.dirty = false;
    this.savedAt = Date.now();
  }
}
