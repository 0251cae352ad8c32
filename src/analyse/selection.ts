// What the filters (--since, --until, --request-id, --segment) select. They choose what is
// reported and summarised; the rules still see every entry, so that cutting a log never
// invents an incomplete pair or a step back in time.

import { isoAt } from '../parse/calendar.js';

export interface Selection {
  /** Seconds since the epoch, inclusive; null: no bound. */
  since: number | null;
  until: number | null;
  requestIds: ReadonlySet<string> | null;
  segments: ReadonlySet<string> | null;
}

export function isEmptySelection(s: Selection): boolean {
  return s.since === null && s.until === null && s.requestIds === null && s.segments === null;
}

/** Whether a place (an entry, a lookup) is selected. `instant` null: it has none (a bad header). */
export function selects(s: Selection | null, instant: number | null, requestId: string | null, segment: string | null): boolean {
  if (s === null) return true;
  if (s.since !== null && (instant === null || instant < s.since)) return false;
  if (s.until !== null && (instant === null || instant > s.until)) return false;
  if (s.requestIds !== null && (requestId === null || !s.requestIds.has(requestId))) return false;
  if (s.segments !== null && (segment === null || !s.segments.has(segment))) return false;
  return true;
}

/**
 * A --since or --until bound written as the log writes its times: ISO 8601 at the offset
 * of `like` (an ISO time of the log, such as its first), else at UTC; whole seconds.
 */
export function boundText(instant: number, like: string | null): string {
  const m = like === null ? null : /([+-])(\d{2}):(\d{2})$/.exec(like);
  const negative = m !== null && m[1] === '-';
  const offset = m === null ? 0 : (negative ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
  return isoAt(instant, offset, negative);
}

const UNITS: Record<string, number> = { s: 1, m: 60, min: 60, h: 3600, d: 86400, w: 604800 };

/**
 * A point in time for --since and --until: ISO 8601 (`2026-11-21T10:00:00+01:00`,
 * `2026-11-21`; without an offset, this machine's time zone, as `date` reads it), or an
 * age before `now`: `90s`, `15m`, `2h`, `3d`, `1w`. Null when it is neither.
 */
export function parseWhen(text: string, now: number): number | null {
  const age = /^(\d+(?:\.\d+)?)\s*(s|m|min|h|d|w)$/.exec(text.trim());
  if (age) return Math.floor(now - Number(age[1]) * UNITS[age[2]]);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}
