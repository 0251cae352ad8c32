// The refresh-pairing state machine (SPEC §2). One pending lookup per key; before each
// well-formed entry, pending lookups older than the window are given up as incomplete.
// Decisions depend only on what has been read, so a live stream pairs like a file.

import { Side } from '../parse/table.js';

export interface Lookup {
  /** Request id, else session segment, else the shared key of lookups with neither. */
  key: string;
  side: Side;
  instant: number;
  fileIndex: number;
  line: number;
  requestId: string | null;
  /** For the filters: a lookup is reported when its own entry is selected. */
  segment: string | null;
}

export interface PairingEvents {
  /** A lookup that found no partner. */
  incomplete(lookup: Lookup): void;
  /** A refresh pair: `first` was pending when `second` came. */
  pair(first: Lookup, second: Lookup): void;
}

/** The pairing key of a lookup: request id, else session segment, else one shared key. */
export function pairingKey(requestId: string | null, segment: string | null): string {
  if (requestId !== null) return 'id:' + requestId;
  if (segment !== null) return 'segment:' + segment;
  return 'none';
}

export class Pairing {
  private readonly pending = new Map<string, Lookup>();
  /** Lookups no longer pending, to be filled again: a long log makes millions of them. */
  private readonly spare: Lookup[] = [];
  /** The earliest instant among pending lookups (Infinity when none): skips scans. */
  private oldest = Infinity;

  constructor(
    private readonly windowSeconds: number,
    private readonly events: PairingEvents,
  ) {}

  /** Before a well-formed entry at `instant`: every lookup pending more than the window is incomplete. */
  advance(instant: number): void {
    if (instant - this.oldest <= this.windowSeconds) return;
    let oldest = Infinity;
    for (const [key, p] of this.pending) {
      if (instant - p.instant > this.windowSeconds) {
        this.pending.delete(key);
        this.events.incomplete(p);
        this.spare.push(p);
      } else if (p.instant < oldest) {
        oldest = p.instant;
      }
    }
    this.oldest = oldest;
  }

  /** The next lookup. `l` is not kept: the caller may reuse it. */
  lookup(l: Lookup): void {
    const p = this.pending.get(l.key);
    if (p !== undefined && p.side !== l.side) {
      this.pending.delete(l.key);
      this.events.pair(p, l);
      this.spare.push(p);
      return;
    }
    if (p !== undefined) this.events.incomplete(p);
    const kept = p ?? this.spare.pop() ?? { key: '', side: l.side, instant: 0, fileIndex: 0, line: 0, requestId: null, segment: null };
    kept.key = l.key;
    kept.side = l.side;
    kept.instant = l.instant;
    kept.fileIndex = l.fileIndex;
    kept.line = l.line;
    kept.requestId = l.requestId;
    kept.segment = l.segment;
    this.pending.set(l.key, kept);
    if (l.instant < this.oldest) this.oldest = l.instant;
  }

  /** End of input (or a live stream stopping): every pending lookup is incomplete. */
  finish(): void {
    for (const p of this.pending.values()) this.events.incomplete(p);
    this.pending.clear();
    this.oldest = Infinity;
  }
}
