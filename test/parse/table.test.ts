import { describe, expect, it } from 'vitest';
import { Side, sideNamed, sideOfTable, tableAfterFrom, tableNameAt } from '../../src/parse/table.js';

/** The side of a lookup as the entry reader decides it: the message's table first, else the query's. */
function lookupSide(message: string, query: string): Side {
  return sideNamed(message) ?? sideOfTable(tableAfterFrom(query));
}

describe('table names', () => {
  it('reads bare, quoted and schema-qualified names', () => {
    expect(tableNameAt('calendars WHERE', 0)).toBe('calendars');
    expect(tableNameAt('"calendars" x', 0)).toBe('calendars');
    expect(tableNameAt('`caldav_calendars`', 0)).toBe('caldav_calendars');
    expect(tableNameAt('[calendars]', 0)).toBe('calendars');
    expect(tableNameAt('main.calendars', 0)).toBe('calendars');
    expect(tableNameAt('"main"."rc_caldav_calendars"', 0)).toBe('rc_caldav_calendars');
    expect(tableNameAt('(SELECT', 0)).toBeNull();
  });

  it("takes the query's first FROM <name>, keywords in any case", () => {
    expect(tableAfterFrom("SELECT *, calendar_id AS id FROM calendars WHERE user_id = '1'")).toBe('calendars');
    expect(tableAfterFrom('select * from\n    caldav_calendars')).toBe('caldav_calendars');
    expect(tableAfterFrom('SELECT * FROM (SELECT 1) x, calendars')).toBe(null);
    // Only the first FROM counts (SPEC §2): a subquery after it names no table.
    expect(tableAfterFrom('SELECT * FROM (SELECT * FROM calendars) x')).toBeNull();
    expect(tableAfterFrom('SELECT * FROM events e JOIN (SELECT * FROM calendars) c')).toBe('events');
    expect(tableAfterFrom('SELECT a_from FROM caldav_calendars')).toBe('caldav_calendars');
    expect(tableAfterFrom('')).toBeNull();
  });

  it('ends an unquoted name at white space or punctuation, and stays linear on hostile text', () => {
    expect(tableAfterFrom('SELECT * FROM calendars-old')).toBe('calendars-old');
    expect(sideOfTable(tableAfterFrom('SELECT * FROM calendars-old'))).toBe(Side.None);
    expect(sideOfTable(tableAfterFrom('SELECT * FROM calendars#1 WHERE 1'))).toBe(Side.None);
    expect(tableAfterFrom('SELECT * FROM calendars;')).toBe('calendars');
    expect(tableAfterFrom('SELECT * FROM calendars,events')).toBe('calendars');
    expect(tableAfterFrom("SELECT * FROM calendars'x")).toBe('calendars');
    expect(tableAfterFrom('SELECT * FROM main.calendars(')).toBe('calendars');
    expect(tableAfterFrom('SELECT * FROM [calendars')).toBeNull();
    expect(tableAfterFrom('FROM ['.repeat(50_000) + ' FROM calendars')).toBeNull();
    expect(tableNameAt('"a".'.repeat(50_000) + 'calendars', 0)).toBe('calendars');
  });

  it('sorts names into remote, local or neither; names are case-sensitive', () => {
    expect(sideOfTable('calendars')).toBe(Side.Local);
    expect(sideOfTable('rc_calendars')).toBe(Side.Local);
    expect(sideOfTable('caldav_calendars')).toBe(Side.Remote);
    expect(sideOfTable('rc_caldav_calendars')).toBe(Side.Remote);
    expect(sideOfTable('CALENDARS')).toBe(Side.None);
    expect(sideOfTable('calendars_old')).toBe(Side.None);
    expect(sideOfTable('my-calendars')).toBe(Side.None);
    expect(sideOfTable('events')).toBe(Side.None);
    expect(sideOfTable(null)).toBe(Side.None);
  });

  it('prefers `no such table: <name>` to the query', () => {
    expect(lookupSide('no such table: caldav_calendars', 'SELECT * FROM calendars')).toBe(Side.Remote);
    expect(lookupSide('no such table: main.calendars', '')).toBe(Side.Local);
    expect(lookupSide('no such table: users', 'SELECT * FROM calendars')).toBe(Side.None);
    expect(lookupSide('database is locked', 'SELECT * FROM "caldav_calendars"')).toBe(Side.Remote);
    expect(lookupSide('', '')).toBe(Side.None);
  });

  it('finds `no such table: <name>` anywhere in the message, as PDO may prefix it', () => {
    expect(lookupSide('SQLSTATE[HY000]: General error: 1 no such table: caldav_calendars', 'SELECT * FROM calendars')).toBe(Side.Remote);
    expect(lookupSide('SQLSTATE[HY000]: General error: 1 no such table: users', 'SELECT * FROM calendars')).toBe(Side.None);
  });
});
