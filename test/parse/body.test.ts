import { describe, expect, it } from 'vitest';
import { KindNames, kindAt, newParts, scanDbHead, scanDbTail, scanRequest } from '../../src/parse/body.js';

// The parsers work on bytes; these read their answers back as strings.
function entryKind(text: string): string {
  const b = Buffer.from(text);
  return kindAt(b, 0, b.length, new KindNames());
}

function requestAtEnd(text: string): { method: string; path: string } | null {
  const b = Buffer.from(text);
  const p = newParts();
  if (scanRequest(b, 0, b.length, p) < 0) return null;
  return { method: b.toString('utf8', p.methodStart, p.methodEnd), path: b.toString('utf8', p.pathStart, p.pathEnd) };
}

function parseDbError(text: string) {
  const b = Buffer.from(text);
  const p = newParts();
  if (!scanDbHead(b, 0, b.length, p) || !scanDbTail(b, 0, b.length, p)) return null;
  const s = (start: number, end: number) => b.toString('utf8', start, end);
  return {
    code: s(p.codeStart, p.codeEnd),
    message: s(p.messageStart, p.messageEnd),
    query: s(p.queryStart, p.queryEnd),
    sourceFile: s(p.sourceStart, p.sourceEnd),
    sourceLine: p.sourceLine,
    request: { method: s(p.methodStart, p.methodEnd), path: s(p.pathStart, p.pathEnd) },
  };
}

const SRC = '/usr/share/roundcube/program/lib/Roundcube/rcube_db.php';
const REFRESH = 'POST /cpsess0123456789/3rdparty/roundcube/index.php?_task=mail&_action=refresh';

describe('entry kind', () => {
  it("reads <KIND> from `<KIND> Error: `", () => {
    expect(entryKind('DB Error: [1] x')).toBe('DB');
    expect(entryKind('IMAP Error: Login failed')).toBe('IMAP');
    expect(entryKind('SMTP Error: Connection failed')).toBe('SMTP');
    expect(entryKind('PHP Error: Failed to load plugin')).toBe('PHP');
  });

  it("gives PHP for PHP's own lines", () => {
    expect(entryKind('PHP Fatal error:  Uncaught Exception')).toBe('PHP');
    expect(entryKind('PHP Warning:  Undefined array key')).toBe('PHP');
    expect(entryKind('PHP Parse error:  syntax error')).toBe('PHP');
    expect(entryKind('PHP Deprecated:  x')).toBe('PHP');
  });

  it('reads `DB Error:` without its space as a DB Error (a malformed one: SPEC §1)', () => {
    expect(entryKind('DB Error:x')).toBe('DB');
    expect(entryKind('DB Error:')).toBe('DB');
  });

  it('gives text for anything else', () => {
    expect(entryKind('Db Error: x')).toBe('text');
    expect(entryKind('Error: x')).toBe('text');
    expect(entryKind('IMAP2 Error: x')).toBe('text');
    expect(entryKind('PHP is fine')).toBe('text');
    expect(entryKind('')).toBe('text');
    expect(entryKind('Successful login for alice (ID: 1) from 10.0.0.1')).toBe('text');
  });
});

describe('the request at the end', () => {
  it('reads METHOD and path, trailing white space ignored', () => {
    expect(requestAtEnd(`x in f on line 1 (${REFRESH})`)).toMatchObject({
      method: 'POST',
      path: '/cpsess0123456789/3rdparty/roundcube/index.php?_task=mail&_action=refresh',
    });
    expect(requestAtEnd('x (GET /a/index.php) \t\n  ')).toMatchObject({ method: 'GET', path: '/a/index.php' });
  });

  it('takes the last (METHOD path) even with parentheses in the path', () => {
    expect(requestAtEnd('x (GET /old) y (POST /a?b=(c))')).toMatchObject({ method: 'POST', path: '/a?b=(c)' });
  });

  it('finds none when the entry does not end with one', () => {
    for (const text of ['x', 'x (POST /a) trailing', 'x (post /a)', 'x (POST)', 'x ( /a)', 'x (POST  /a)', 'x(POST /a)b']) {
      expect(requestAtEnd(text), text).toBeNull();
    }
  });
});

describe('DB Error body', () => {
  const db = (rest: string) => parseDbError(`DB Error: ${rest}`);

  it('reads the shape of the service', () => {
    const q = "SELECT *, calendar_id AS id FROM calendars WHERE user_id = '1' ORDER BY name";
    expect(db(`[1] no such table: calendars (SQL Query: ${q}) in ${SRC} on line 578 (${REFRESH})`)).toMatchObject({
      code: '1',
      message: 'no such table: calendars',
      query: q,
      sourceFile: SRC,
      sourceLine: 578,
      request: { method: 'POST' },
    });
  });

  it('takes an empty code and message with two spaces, or one', () => {
    const two = db(`[]  (SQL Query: ) in ${SRC} on line 578 (GET /cpsess0123456789/3rdparty/roundcube/index.php)`);
    expect(two).toMatchObject({ code: '', message: '', query: '' });
    const one = db(`[] (SQL Query: ) in ${SRC} on line 578 (GET /x)`);
    expect(one).toMatchObject({ code: '', message: '', query: '' });
  });

  it('takes any text as the code', () => {
    expect(db(`[HY000] database is locked (SQL Query: SELECT 1) in ${SRC} on line 567 (${REFRESH})`)).toMatchObject({
      code: 'HY000',
      message: 'database is locked',
      sourceLine: 567,
    });
  });

  it('reads the tail from the end: the query may hold parentheses, ` in ` and newlines', () => {
    const q = "SELECT * FROM calendars WHERE (user_id = '1') AND name in ('a', 'b) in x on line 2 (GET /y)')\n  ORDER BY name";
    expect(db(`[1] no such table: calendars (SQL Query: ${q}) in ${SRC} on line 578 (${REFRESH})`)).toMatchObject({
      query: q,
      sourceFile: SRC,
    });
  });

  it('keeps a message that holds parentheses', () => {
    expect(db(`[1] near "(": syntax error (SQL Query: x) in ${SRC} on line 1 (${REFRESH})`)?.message).toBe('near "(": syntax error');
  });

  it('refuses what lacks a part of the shape', () => {
    for (const rest of [
      `1] x (SQL Query: q) in ${SRC} on line 1 (${REFRESH})`,
      `[1 x (SQL Query: q) in ${SRC} on line 1 (${REFRESH})`,
      `[1]x (SQL Query: q) in ${SRC} on line 1 (${REFRESH})`,
      `[1] x (SQL: q) in ${SRC} on line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) in ${SRC} on line (${REFRESH})`,
      `[1] x (SQL Query: q) in ${SRC} line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) ${SRC} on line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) in  on line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) in ${SRC} on line 1`,
      `[1] x (SQL Query: q) in ${SRC} on line 1 ( )`,
      `connection lost (${REFRESH})`,
      '',
      // SPEC §1: the punctuation is exact, and the tail stands on the entry's last line.
      `[1] x (SQL Query:q) in ${SRC} on line 1 (${REFRESH})`,
      `[1] x (SQL Query:) in ${SRC} on line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) in /usr/share/\nroundcube/rcube_db.php on line 1 (${REFRESH})`,
      `[1] x (SQL Query: q) in ${SRC}\n on line 1 (${REFRESH})`,
    ]) {
      expect(db(rest), rest).toBeNull();
    }
    for (const whole of ['DB Error:x', `DB Error:[1] x (SQL Query: q) in ${SRC} on line 1 (${REFRESH})`, `DB Error:  [1] x (SQL Query: q) in ${SRC} on line 1 (${REFRESH})`]) {
      expect(parseDbError(whole), whole).toBeNull();
    }
  });

  it('reads a query that ends on the last line, beside the tail', () => {
    expect(db(`[1] x (SQL Query: SELECT *\n FROM calendars\n ORDER BY name) in ${SRC} on line 578 (${REFRESH})\n`)).toMatchObject({
      query: 'SELECT *\n FROM calendars\n ORDER BY name',
      sourceFile: SRC,
    });
    expect(db(`[1] x (SQL Query: SELECT 1\n) in ${SRC} on line 578 (${REFRESH})`)?.query).toBe('SELECT 1\n');
  });
});
