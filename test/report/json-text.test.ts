import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, type Level } from '../../src/analyse/rules.js';
import { violationObject, violationText } from '../../src/report/json.js';
import { jsonText } from '../../src/report/json-text.js';
import { VERSION } from '../../src/version.js';

describe('jsonText', () => {
  it('keeps the value and shows no control or bidi character raw', () => {
    const value = { id: 'a\u202eb\u007f\u0085\u2028', nested: ['\x1b[31m', '\u0000'], plain: 'ümlaut 日本' };
    const text = jsonText(value, 2);
    expect(JSON.parse(text)).toEqual(value);
    // Newlines are the indentation's own; nothing else below 0x20 may stand raw.
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2028]/);
    expect(text).toContain('\\u202e');
    expect(text).toContain('ümlaut 日本');
  });
});

describe('version', () => {
  it('is the one package.json has', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });
});

describe('jsonText of a string', () => {
  it('is JSON.stringify\'s for plain and other strings alike', () => {
    const strings = ['', 'a08ff49b', 'cpsess0123456789', '2026-11-01T01:00:00+01:00', 'say "hi"', 'back\\slash', 'tab\there', '\u007f', 'ü', '\ud800', 'x'.repeat(300), ' !#[]~'];
    for (const s of strings) expect(jsonText(s), JSON.stringify(s)).toBe(JSON.stringify(s).replace('\u007f', '\\u007f'));
  });
});

describe('a violation in the JSON document', () => {
  it('is written as jsonText writes the object, indented one level more, whatever its strings hold', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('', 'a\u202eb\u007f\u0085\u2028', '"\\\n\t', 'x'.repeat(300)));
    const violation = fc.record({
      rule: fc.constantFrom(...RULE_IDS),
      severity: fc.constantFrom('error', 'warning', 'info') as fc.Arbitrary<Level>,
      fileIndex: fc.nat(),
      file: text,
      line: fc.nat(),
      requestId: fc.option(text),
      message: text,
    });
    fc.assert(
      fc.property(violation, (v) => {
        expect(violationText(v, true)).toBe(jsonText(violationObject(v), 2).replace(/\n/g, '\n    '));
        expect(violationText(v, false)).toBe(jsonText(violationObject(v)));
      }),
    );
  });
});
