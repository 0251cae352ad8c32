// The refresh-pairing state machine (SPEC §2). One pending lookup per key; before each
// well-formed entry, pending lookups older than the window are given up as incomplete.
// Decisions depend only on what has been read, so a live stream pairs like a file.

import { Side } from '../parse/table.js';

export interface Lookup {
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

/**
 * A key's place for its pending lookup (SPEC §2: a request id, else a session segment,
 * else the one key of lookups with neither). The caller keeps it (a request id's state
 * is one), so pairing does no Map lookup and no key string is made per lookup.
 */
export class Slot {
  pending: Lookup | null = null;
  /** Index in the active list, or -1. */
  at = -1;
}

export class Pairing {
  /** Slots with a pending lookup, for the expiry scan. */
  private readonly active: Slot[] = [];
  /** Lookups no longer pending, to be filled again: a long log makes millions of them. */
  private readonly spare: Lookup[] = [];
  /** The earliest instant among pending lookups (Infinity when none): skips scans. */
  private oldest = Infinity;

  constructor(
    private readonly windowSeconds: number,
    private readonly events: PairingEvents,
  ) {}

  private activate(slot: Slot): void {
    slot.at = this.active.length;
    this.active.push(slot);
  }

  private deactivate(slot: Slot): void {
    const last = this.active.pop() as Slot;
    if (last !== slot) {
      this.active[slot.at] = last;
      last.at = slot.at;
    }
    slot.at = -1;
    slot.pending = null;
  }

  /** Before a well-formed entry at `instant`: every lookup pending more than the window is incomplete. */
  advance(instant: number): void {
    if (instant - this.oldest <= this.windowSeconds) return;
    let oldest = Infinity;
    for (let i = this.active.length - 1; i >= 0; i--) {
      const slot = this.active[i];
      const p = slot.pending as Lookup;
      if (instant - p.instant > this.windowSeconds) {
        this.deactivate(slot);
        this.events.incomplete(p);
        this.spare.push(p);
      } else if (p.instant < oldest) {
        oldest = p.instant;
      }
    }
    this.oldest = oldest;
  }

  /** The next lookup, at the slot of its key. `l` is not kept: the caller may reuse it. */
  lookup(l: Lookup, slot: Slot): void {
    const p = slot.pending;
    if (p !== null && p.side !== l.side) {
      this.deactivate(slot);
      this.events.pair(p, l);
      this.spare.push(p);
      return;
    }
    if (p !== null) this.events.incomplete(p);
    const kept = p ?? this.spare.pop() ?? { side: l.side, instant: 0, fileIndex: 0, line: 0, requestId: null, segment: null };
    kept.side = l.side;
    kept.instant = l.instant;
    kept.fileIndex = l.fileIndex;
    kept.line = l.line;
    kept.requestId = l.requestId;
    kept.segment = l.segment;
    slot.pending = kept;
    if (slot.at < 0) this.activate(slot);
    if (l.instant < this.oldest) this.oldest = l.instant;
  }

  /** End of input (or a live stream stopping): every pending lookup is incomplete. */
  finish(): void {
    while (this.active.length > 0) {
      const slot = this.active[0];
      const p = slot.pending as Lookup;
      this.deactivate(slot);
      this.events.incomplete(p);
      this.spare.push(p);
    }
    this.oldest = Infinity;
  }
}
