import { describe, expect, it } from 'vitest';
import { isRefreshAt, RequestCode, requestCodeAt, segmentEnd, segmentStart } from '../../src/parse/request.js';

// The parsers work on bytes; these read their answers back as strings.
function sessionSegment(path: string): string | null {
  const b = Buffer.from(path);
  const end = segmentEnd(b, 0, b.length);
  return end < 0 ? null : b.toString('latin1', segmentStart(b, 0, end), end);
}

function isRefresh(method: string, path: string): boolean {
  const b = Buffer.from(`${method} ${path}`);
  return isRefreshAt(b, 0, method.length, method.length + 1, b.length);
}

const KINDS = { [RequestCode.None]: 'other', [RequestCode.Refresh]: 'refresh', [RequestCode.Login]: 'login', [RequestCode.Entry]: 'entry', [RequestCode.Other]: 'other' };

function requestKind(method: string, path: string): string {
  const b = Buffer.from(`${method} ${path}`);
  return KINDS[requestCodeAt(b, 0, method.length, method.length + 1, b.length)];
}

describe('session segment', () => {
  it("reads a lowercase prefix and 10 digits between the path's first and second `/`", () => {
    expect(sessionSegment('/cpsess0123456789/3rdparty/roundcube/index.php')).toBe('cpsess0123456789');
    expect(sessionSegment('/cpsess0123456789/?_task=mail')).toBe('cpsess0123456789');
  });

  it('finds none without a second `/` (SPEC §1)', () => {
    expect(sessionSegment('/cpsess0123456789?x=1')).toBeNull();
    expect(sessionSegment('/cpsess0123456789')).toBeNull();
    expect(sessionSegment('/cpsess0123456789#a/b')).toBeNull();
    expect(sessionSegment('/cpsess0123456789?a=/b')).toBeNull();
  });

  it('finds none elsewhere or of another shape', () => {
    for (const path of [
      '/3rdparty/roundcube/index.php',
      '/roundcube/cpsess0123456789/index.php',
      '/cpsess012345678/index.php',
      '/cpsess01234567890/index.php',
      '/CPSESS0123456789/index.php',
      '/0123456789/index.php',
      'cpsess0123456789/index.php',
      '',
    ]) {
      expect(sessionSegment(path), path).toBeNull();
    }
  });
});

describe('request kind', () => {
  const base = '/cpsess0123456789/3rdparty/roundcube/index.php';

  it('knows a refresh by POST, _task=mail and _action=refresh in any order', () => {
    expect(requestKind('POST', `${base}?_task=mail&_action=refresh`)).toBe('refresh');
    expect(requestKind('POST', `${base}?_action=refresh&_task=mail`)).toBe('refresh');
    expect(requestKind('POST', `${base}?_task=mail&_action=refresh&_remote=1&_unlock=loading1`)).toBe('refresh');
    expect(requestKind('POST', '/cpsess0123456789/3rdparty/roundcube/?_task=mail&_action=refresh')).toBe('refresh');
    expect(isRefresh('POST', '/cpsess0123456789/3rdparty/roundcube/?_action=refresh&_task=mail')).toBe(true);
  });

  it('needs both parameters exactly, and POST', () => {
    for (const [method, path] of [
      ['GET', `${base}?_task=mail&_action=refresh`],
      ['POST', `${base}?_task=mail`],
      ['POST', `${base}?_task=mail&_action=refreshed`],
      ['POST', `${base}?x_task=mail&_action=refresh`],
      ['POST', `${base}?_task=calendar&_action=refresh`],
      ['POST', base],
    ]) {
      expect(isRefresh(method, path), path).toBe(false);
      expect(requestKind(method, path)).not.toBe('refresh');
    }
  });

  it('knows a login completion and the entry page', () => {
    expect(requestKind('POST', `${base}?login=1&post_login=46480620395438&_task=login&_action=login`)).toBe('login');
    expect(requestKind('POST', `${base}?login=1&post_login=x`)).toBe('other');
    expect(requestKind('POST', `${base}?login=1&post_login=`)).toBe('other');
    expect(requestKind('POST', `${base}?login=2&post_login=46480620395438`)).toBe('other');
    // Any post_login value of digits will do, the first or a later one.
    expect(requestKind('POST', `${base}?post_login=x&login=1&post_login=7`)).toBe('login');
    expect(requestKind('GET', base)).toBe('entry');
    expect(requestKind('GET', `${base}?_task=mail`)).toBe('other');
  });
});
