// What the summary counts: per request id, per signature, and in all (SPEC §5).
// Only well-formed entries are counted here; malformed ones are counted by the analyser.

import { isoAt, } from '../parse/calendar.js';
import type { Stamp } from '../parse/header.js';

export interface RequestIdRow {
  id: string;
  sessionSegments: string[];
  entries: number;
  refreshPairs: number;
  first: string;
  last: string;
}

export interface Signature {
  kind: string;
  code: string | null;
  message: string | null;
  count: number;
}

/** What is kept per request id while reading. */
export interface IdState {
  id: string;
  segments: string[];
  entries: number;
  refreshPairs: number;
  first: Stamp;
  last: Stamp;
}

export function iso(stamp: Stamp): string {
  return isoAt(stamp.instant, stamp.offset, stamp.negative);
}

export class SignatureCounter {
  /** DB errors by code and message; other kinds by kind. */
  private readonly db = new Map<string, Map<string, number>>();
  private readonly other = new Map<string, number>();

  add(kind: string, code: string | null, message: string | null): void {
    if (kind === 'DB' && code !== null && message !== null) {
      let byMessage = this.db.get(code);
      if (byMessage === undefined) this.db.set(code, (byMessage = new Map()));
      byMessage.set(message, (byMessage.get(message) ?? 0) + 1);
    } else {
      this.other.set(kind, (this.other.get(kind) ?? 0) + 1);
    }
  }

  /** By count, descending, then by kind, code and message. */
  rows(): Signature[] {
    const rows: Signature[] = [];
    for (const [code, byMessage] of this.db) {
      for (const [message, count] of byMessage) rows.push({ kind: 'DB', code, message, count });
    }
    for (const [kind, count] of this.other) rows.push({ kind, code: null, message: null, count });
    return rows.sort(
      (a, b) => b.count - a.count || cmp(a.kind, b.kind) || cmp(a.code ?? '', b.code ?? '') || cmp(a.message ?? '', b.message ?? ''),
    );
  }
}

/** Code-unit order, the same on every machine and locale. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
