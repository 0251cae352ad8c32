// What a logged request path says: its session segment and what the request was for
// (SPEC §1, "Request path").

export type RequestKind = 'refresh' | 'login' | 'entry' | 'other';

function isLower(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The session segment (`cpsess0123456789`: a lowercase prefix and 10 digits) that a path
 * starts with, or null: a path without one is no error.
 */
export function sessionSegment(path: string): string | null {
  if (path.charCodeAt(0) !== 0x2f /* / */) return null;
  let end = 1;
  while (end < path.length) {
    const c = path.charCodeAt(end);
    if (c === 0x2f || c === 0x3f /* ? */ || c === 0x23 /* # */) break;
    end++;
  }
  const digitsStart = end - 10;
  if (digitsStart < 2) return null;
  for (let i = 1; i < digitsStart; i++) if (!isLower(path.charCodeAt(i))) return null;
  for (let i = digitsStart; i < end; i++) if (!isDigit(path.charCodeAt(i))) return null;
  return path.slice(1, end);
}

/** The parameters of a path's query, as written (`_task=mail`), in order. */
function queryParams(path: string): string[] {
  const q = path.indexOf('?');
  return q < 0 ? [] : path.slice(q + 1).split('&');
}

/**
 * refresh: POST with `_task=mail` and `_action=refresh` (any order, more may follow);
 * login completion: POST with `login=1` and `post_login=<digits>`; entry page: GET with no query.
 */
export function requestKind(method: string, path: string): RequestKind {
  if (method === 'POST') {
    const params = queryParams(path);
    if (params.includes('_task=mail') && params.includes('_action=refresh')) return 'refresh';
    if (params.includes('login=1') && params.some((p) => /^post_login=\d+$/.test(p))) return 'login';
    return 'other';
  }
  if (method === 'GET' && !path.includes('?')) return 'entry';
  return 'other';
}

/** True for a mailbox refresh: the fast test the hot path needs. */
export function isRefresh(method: string, path: string): boolean {
  if (method !== 'POST') return false;
  const q = path.indexOf('?');
  if (q < 0) return false;
  return hasParam(path, q + 1, '_task=mail') && hasParam(path, q + 1, '_action=refresh');
}

function hasParam(path: string, from: number, param: string): boolean {
  let at = from;
  for (;;) {
    const found = path.indexOf(param, at);
    if (found < 0) return false;
    const before = path.charCodeAt(found - 1);
    const after = found + param.length;
    if ((found === from || before === 0x26 /* & */) && (after === path.length || path.charCodeAt(after) === 0x26)) {
      return true;
    }
    at = found + 1;
  }
}
