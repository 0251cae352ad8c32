import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/report/escape.js';

describe('escapeControls', () => {
  it('writes control characters as escapes', () => {
    expect(escapeControls('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(escapeControls('a\nb\rc\td\x00e\x7f\x9b')).toBe('a\\nb\\rc\\td\\x00e\\x7f\\x9b');
    expect(escapeControls('evil\u202eexe.txt')).toBe('evil\\u202eexe.txt');
  });

  it('leaves other text alone', () => {
    expect(escapeControls('no such table: calendars — ümlaut 日本')).toBe('no such table: calendars — ümlaut 日本');
  });
});
