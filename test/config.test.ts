import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../src/config.js';
import { UsageError } from '../src/errors.js';

describe('config', () => {
  it('takes rule severities, the pairing window, the id alphabet and formats', () => {
    expect(
      parseConfig({ rules: { 'pair-incomplete': 'off', 'request-id-format': 'error' }, pairWindow: 45, requestIdAlphabet: 'php5', format: ['text', 'sarif=out.sarif'] }, 'c.json'),
    ).toEqual({ rules: { 'pair-incomplete': 'off', 'request-id-format': 'error' }, pairWindow: 45, requestIdAlphabet: 'php5', format: ['text', 'sarif=out.sarif'] });
    expect(parseConfig({ format: 'json' }, 'c.json')).toEqual({ format: ['json'] });
    expect(parseConfig({}, 'c.json')).toEqual({});
  });

  it('names the key of anything it does not know or cannot take', () => {
    const bad: [unknown, RegExp][] = [
      [[], /c\.json: expected a JSON object/],
      [{ pairwindow: 3 }, /c\.json: unknown key "pairwindow"/],
      [{ rules: [] }, /c\.json: rules: expected an object/],
      [{ rules: { 'pair-orders': 'off' } }, /c\.json: rules: unknown rule "pair-orders"/],
      [{ rules: { 'pair-order': 'fatal' } }, /c\.json: rules\.pair-order: expected off, warning, error/],
      [{ pairWindow: '30' }, /c\.json: pairWindow: expected a number/],
      [{ pairWindow: -1 }, /c\.json: pairWindow/],
      [{ requestIdAlphabet: 'base64' }, /c\.json: requestIdAlphabet: expected hex, php5, php6/],
      [{ format: [] }, /c\.json: format/],
      [{ format: [1] }, /c\.json: format/],
    ];
    for (const [value, message] of bad) {
      expect(() => parseConfig(value, 'c.json'), JSON.stringify(value)).toThrow(UsageError);
      expect(() => parseConfig(value, 'c.json')).toThrow(message);
    }
  });

  it('reads webmail-log.config.json from the directory when there is one, and needs a named file to exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'webmail-log-config-'));
    expect(loadConfig(undefined, dir)).toEqual({});
    writeFileSync(join(dir, 'webmail-log.config.json'), '{"pairWindow": 10}');
    expect(loadConfig(undefined, dir)).toEqual({ pairWindow: 10 });
    expect(() => loadConfig(join(dir, 'nope.json'), dir)).toThrow(/nope\.json: no such file/);
    writeFileSync(join(dir, 'broken.json'), '{"pairWindow": ');
    expect(() => loadConfig(join(dir, 'broken.json'), dir)).toThrow(/broken\.json: not valid JSON/);
  });
});
