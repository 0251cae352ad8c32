// webmail-log.config.json: rule severities, pairing window, request-id alphabet and
// default formats for a project. Flags win over it, and it wins over the defaults.
// Anything it does not know is an error naming the key, never silently ignored.

import { readFileSync } from 'node:fs';
import { ALPHABET_NAMES, isAlphabetName, type AlphabetName } from './analyse/alphabet.js';
import { isRuleId, isSeverity, SEVERITIES, type RuleId, type Severity } from './analyse/rules.js';
import { UsageError } from './errors.js';

export const CONFIG_FILE = 'webmail-log.config.json';

export interface Config {
  rules?: Partial<Record<RuleId, Severity>>;
  pairWindow?: number;
  requestIdAlphabet?: AlphabetName;
  /** As `--format` takes them: `text`, `sarif=report.sarif`, … */
  format?: string[];
}

const KEYS = ['rules', 'pairWindow', 'requestIdAlphabet', 'format'];

function fail(file: string, what: string): never {
  throw new UsageError(`${file}: ${what}`);
}

/** Checks a parsed config; `file` names it in errors. */
export function parseConfig(value: unknown, file: string): Config {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(file, 'expected a JSON object');
  const raw = value as Record<string, unknown>;
  const config: Config = {};
  for (const key of Object.keys(raw)) {
    if (!KEYS.includes(key)) fail(file, `unknown key "${key}" (known: ${KEYS.join(', ')})`);
  }
  if (raw.rules !== undefined) {
    if (typeof raw.rules !== 'object' || raw.rules === null || Array.isArray(raw.rules)) fail(file, 'rules: expected an object of rule ids and severities');
    config.rules = {};
    for (const [id, severity] of Object.entries(raw.rules)) {
      if (!isRuleId(id)) fail(file, `rules: unknown rule "${id}"`);
      if (typeof severity !== 'string' || !isSeverity(severity)) fail(file, `rules.${id}: expected ${SEVERITIES.join(', ')}`);
      config.rules[id] = severity;
    }
  }
  if (raw.pairWindow !== undefined) {
    if (typeof raw.pairWindow !== 'number' || !Number.isFinite(raw.pairWindow) || raw.pairWindow < 0) fail(file, 'pairWindow: expected a number of seconds, 0 or more');
    config.pairWindow = raw.pairWindow;
  }
  if (raw.requestIdAlphabet !== undefined) {
    if (typeof raw.requestIdAlphabet !== 'string' || !isAlphabetName(raw.requestIdAlphabet)) fail(file, `requestIdAlphabet: expected ${ALPHABET_NAMES.join(', ')}`);
    config.requestIdAlphabet = raw.requestIdAlphabet;
  }
  if (raw.format !== undefined) {
    const list = typeof raw.format === 'string' ? [raw.format] : raw.format;
    if (!Array.isArray(list) || list.length === 0 || !list.every((f) => typeof f === 'string')) fail(file, 'format: expected a format or a list of them');
    config.format = list as string[];
  }
  return config;
}

/**
 * The config from `path` (which must exist), or from webmail-log.config.json in `cwd`
 * when there is one, or none.
 */
export function loadConfig(path: string | undefined, cwd: string): Config {
  const file = path ?? CONFIG_FILE;
  let text: string;
  try {
    text = readFileSync(path ?? `${cwd}/${CONFIG_FILE}`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (path === undefined && code === 'ENOENT') return {};
    fail(file, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? (err as Error).message));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    fail(file, `not valid JSON (${(err as Error).message})`);
  }
  return parseConfig(value, file);
}
