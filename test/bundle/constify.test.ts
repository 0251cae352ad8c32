import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { constify } from '../../scripts/constify.mjs';

describe('constify', () => {
  it('makes const the top-level vars that are never written', () => {
    const source = ['var PRIME = 16777619;', 'var Interner = class {', '  get() { return PRIME; }', '};', 'var utf8 = (b) => b.toString("utf8");', 'function f() { var local = 1; return local; }'].join('\n');
    const { text, count } = constify(source);
    expect(count).toBe(3);
    expect(text).toBe(source.replace('var PRIME', 'const PRIME').replace('var Interner', 'const Interner').replace('var utf8', 'const utf8'));
  });

  it('keeps var where a name is written anywhere, however it is written', () => {
    const source = [
      'var a = 1;',
      'var b = 2;',
      'var c = 3;',
      'var d = 4;',
      'var e = 5;',
      'var f = 6;',
      'var g = 7;',
      'var h = 8, kept = 9;',
      'var noValue;',
      'let already = 1;',
      'function w() { a = 2; b++; --c; d += 1; [e] = [1]; ({ x: f } = {}); for (g of []) ; h ??= 1; }',
    ].join('\n');
    const { text, count } = constify(source);
    expect(count).toBe(0);
    expect(text).toBe(source);
  });

  it('counts a write to a shadowing name against the top-level one too', () => {
    const { count } = constify('var n = 1;\nfunction f() { let n = 2; n = 3; return n; }');
    expect(count).toBe(0);
  });

  it('leaves var inside functions and strings alone', () => {
    const source = 'var script = `\nvar t=document.body;\n`;\nfunction f() {\n  var x = 1;\n  return x;\n}';
    expect(constify(source).text).toBe(source.replace('var script', 'const script'));
  });
});

describe('the built bundle', () => {
  it('declares its constants with const (the interner hash loop reads FNV_PRIME as a constant)', () => {
    const dir = fileURLToPath(new URL('../../dist/bundle/', import.meta.url));
    const text = readdirSync(dir)
      .filter((n) => n.endsWith('.js'))
      .map((n) => readFileSync(dir + n, 'utf8'))
      .join('\n');
    expect(text).toMatch(/^const FNV_PRIME = /m);
    expect(text).toMatch(/^const Interner = class/m);
    // What stays var is what the program changes: a module's own state.
    expect(text).toMatch(/^var stampTimeAt = 0;$/m);
    expect(constify(text).count).toBe(0);
  });
});
