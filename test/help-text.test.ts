import { describe, expect, it } from 'vitest';
import { exampleList, paragraph } from '../src/help-text.js';
import { reportWidth, termList } from '../src/report/wrap.js';

describe('help text', () => {
  it('takes the terminal, else COLUMNS, else 80 for the help (100 for a report)', () => {
    expect(reportWidth(132, { COLUMNS: '60' }, 80)).toBe(132);
    expect(reportWidth(undefined, { COLUMNS: '60' }, 80)).toBe(60);
    expect(reportWidth(undefined, { COLUMNS: 'wide' }, 80)).toBe(80);
    expect(reportWidth(undefined, {})).toBe(100);
  });

  it('aligns the meanings of a term list and wraps them beside their terms', () => {
    expect(termList([['a', 'one two three'], ['long', 'four']], 14)).toBe('  a     one\n        two\n        three\n  long  four');
    expect(termList([['a', 'one two']], 8, '')).toBe('a  one\n   two');
    expect(termList([], 80)).toBe('');
  });

  it('sets the comments of examples beside their commands when all fit, else each below its own', () => {
    const examples = [['cmd one'], ['cmd two x', 'why'], ['c3', 'because']] as const;
    expect(exampleList(examples, 40)).toBe('  cmd one\n  cmd two x   (why)\n  c3          (because)');
    expect(exampleList(examples, 22)).toBe('  cmd one\n  cmd two x\n      (why)\n  c3\n      (because)');
  });

  it('lets a command longer than the width run, whole', () => {
    expect(exampleList([['a-command-longer-than-the-width --flag x', 'what']], 20)).toBe('  a-command-longer-than-the-width --flag x\n      (what)');
  });

  it('wraps prose at spaces', () => {
    expect(paragraph('Exit status: 0 clean, 1 errors', 14)).toBe('Exit status: 0\nclean, 1\nerrors');
  });
});
