// A second reading of SPEC §2, §3 and §5, written apart from src/ and as plainly as
// possible: generated logs are described entry by entry (what each line is meant to be),
// and this model derives from that description alone the violations, the counts and the
// request-id rows the SPEC asks for. The differential test runs the real pipeline on the
// same log's text and expects the same answers. Nothing here imports from src/.

export type Side = 'local' | 'remote';

/** One entry as the generator meant it. */
export interface Planned {
  /** Place of its file in the stream, its name, and the 1-based line of its header. */
  fileIndex: number;
  file: string;
  line: number;
  /** Malformed (an invalid header, or a DB Error without its shape): takes part in nothing. */
  malformed: boolean;
  /** Seconds since the epoch; the offset it is written with, in seconds and as §5 writes it (`+01:00`, `-00:00`). */
  instant: number;
  offset: number;
  offsetText: string;
  kind: 'DB' | 'IMAP' | 'PHP' | 'text';
  id: string | null;
  segment: string | null;
  /** For a refresh lookup, its side; null for every other entry. */
  side: Side | null;
  /** A DB error's code and message (as written); null for other kinds. */
  code: string | null;
  message: string | null;
}

/** A run of non-blank lines before the first entry of a file (malformed, at its first line). */
export interface Orphan {
  fileIndex: number;
  file: string;
  line: number;
}

export interface ModelViolation {
  rule: string;
  fileIndex: number;
  file: string;
  line: number;
  requestId: string | null;
}

export interface ModelRow {
  id: string;
  sessionSegments: string[];
  entries: number;
  refreshPairs: number;
  first: string;
  last: string;
}

export interface ModelSignature {
  kind: string;
  code: string | null;
  message: string | null;
  count: number;
}

export interface ModelResult {
  entries: number;
  dbErrors: number;
  otherEntries: number;
  malformedEntries: number;
  requestIds: number;
  refreshLookups: { local: number; remote: number };
  refreshPairs: number;
  violations: ModelViolation[];
  rows: ModelRow[];
  signatures: ModelSignature[];
}

const RULE_ORDER = ['pair-order', 'pair-same-second', 'pair-incomplete', 'chronological', 'request-id-format', 'session-consistency', 'malformed'];

/** ISO 8601 with the entry's own offset, never `Z` (SPEC §5). */
export function iso(e: Planned): string {
  const d = new Date((e.instant + e.offset) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}T${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${e.offsetText}`;
}

/** Plain string order (code units). */
function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What request-id-format accepts (SPEC §1: PHP's session.sid_bits_per_character 4, 5 or 6). */
export const ALPHABETS = { hex: /^[0-9a-f]{8}$/, php5: /^[0-9a-v]{8}$/, php6: /^[0-9a-zA-Z,-]{8}$/ };

export function model(entries: readonly Planned[], orphans: readonly Orphan[], window: number, alphabet: keyof typeof ALPHABETS = 'hex'): ModelResult {
  const violations: ModelViolation[] = [];
  const at = (rule: string, e: { fileIndex: number; file: string; line: number }, requestId: string | null) =>
    violations.push({ rule, fileIndex: e.fileIndex, file: e.file, line: e.line, requestId });
  for (const o of orphans) at('malformed', o, null);

  const pending = new Map<string, Planned>();
  const rows = new Map<string, { row: ModelRow; firstInstant: number; lastInstant: number }>();
  const seenIds = new Set<string>();
  const firstSegment = new Map<string, string>();
  const otherSegments = new Set<string>();
  let previous: Planned | null = null;
  let dbErrors = 0;
  let otherEntries = 0;
  let malformedEntries = 0;
  let local = 0;
  let remote = 0;
  let pairs = 0;
  const signatures = new Map<string, ModelSignature>();

  for (const e of entries) {
    if (e.malformed) {
      malformedEntries++;
      at('malformed', e, e.id);
      continue;
    }
    if (e.kind === 'DB') dbErrors++;
    else otherEntries++;
    const key = e.kind === 'DB' ? `DB ${e.code} ${e.message}` : e.kind;
    const sig = signatures.get(key) ?? { kind: e.kind, code: e.kind === 'DB' ? e.code : null, message: e.kind === 'DB' ? e.message : null, count: 0 };
    sig.count++;
    signatures.set(key, sig);
    if (previous !== null && e.instant < previous.instant) at('chronological', e, e.id);
    previous = e;
    // Lookups waiting longer than the window are incomplete, before E is handled.
    for (const [key, p] of pending) {
      if (e.instant - p.instant > window) {
        at('pair-incomplete', p, p.id);
        pending.delete(key);
      }
    }
    if (e.id !== null) {
      if (!seenIds.has(e.id)) {
        seenIds.add(e.id);
        if (!ALPHABETS[alphabet].test(e.id)) at('request-id-format', e, e.id);
      }
      if (e.segment !== null) {
        const first = firstSegment.get(e.id);
        if (first === undefined) firstSegment.set(e.id, e.segment);
        else if (first !== e.segment && !otherSegments.has(`${e.id} ${e.segment}`)) {
          otherSegments.add(`${e.id} ${e.segment}`);
          at('session-consistency', e, e.id);
        }
      }
      let r = rows.get(e.id);
      if (r === undefined) {
        r = { row: { id: e.id, sessionSegments: [], entries: 0, refreshPairs: 0, first: iso(e), last: iso(e) }, firstInstant: e.instant, lastInstant: e.instant };
        rows.set(e.id, r);
      }
      r.row.entries++;
      if (e.segment !== null && !r.row.sessionSegments.includes(e.segment)) r.row.sessionSegments.push(e.segment);
      if (e.instant < r.firstInstant) {
        r.firstInstant = e.instant;
        r.row.first = iso(e);
      }
      if (e.instant > r.lastInstant) {
        r.lastInstant = e.instant;
        r.row.last = iso(e);
      }
    }
    if (e.side === null) continue;
    if (e.side === 'local') local++;
    else remote++;
    const pairKey = e.id !== null ? `id ${e.id}` : e.segment !== null ? `segment ${e.segment}` : 'none';
    const p = pending.get(pairKey);
    if (p === undefined) {
      pending.set(pairKey, e);
    } else if (p.side === e.side) {
      at('pair-incomplete', p, p.id);
      pending.set(pairKey, e);
    } else {
      pending.delete(pairKey);
      pairs++;
      if (p.side === 'remote') at('pair-order', e, e.id);
      if (Math.floor(p.instant) !== Math.floor(e.instant)) at('pair-same-second', e, e.id);
      if (e.id !== null) rows.get(e.id)!.row.refreshPairs++;
    }
  }
  for (const p of pending.values()) at('pair-incomplete', p, p.id);

  violations.sort((a, b) => a.fileIndex - b.fileIndex || a.line - b.line || RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
  return {
    entries: entries.length,
    dbErrors,
    otherEntries,
    malformedEntries,
    requestIds: rows.size,
    refreshLookups: { local, remote },
    refreshPairs: pairs,
    violations,
    rows: [...rows.values()].map((r) => r.row),
    signatures: [...signatures.values()].sort((a, b) => b.count - a.count || order(a.kind, b.kind) || order(a.code ?? '', b.code ?? '') || order(a.message ?? '', b.message ?? '')),
  };
}
