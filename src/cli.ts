// The command line: options → one set of settings → the pipeline → a report and an exit status.

import { Chalk, type ChalkInstance } from 'chalk';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Finding } from './analyse/finding.js';
import { compareFindings } from './analyse/finding.js';
import { isRuleId, isSeverity, RULES, SEVERITIES, severities, type RuleId, type Severity } from './analyse/rules.js';
import { InputError, UsageError } from './errors.js';
import { analyseInputs } from './pipeline.js';
import { renderJson } from './report/json.js';
import { renderText } from './report/text.js';

export const EXIT_OK = 0;
export const EXIT_VIOLATIONS = 1;
export const EXIT_TROUBLE = 2;

const DEFAULT_PAIR_WINDOW = 30;
const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

interface AnalyseFlags {
  format: Format;
  pairWindow: number;
  rule: [RuleId, Severity][];
  strict?: boolean;
  all?: boolean;
  color?: boolean;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError('expected a number of seconds, 0 or more.');
  }
  return seconds;
}

function collectRule(value: string, previous: [RuleId, Severity][]): [RuleId, Severity][] {
  const eq = value.indexOf('=');
  const id = eq < 0 ? value : value.slice(0, eq);
  const severity = eq < 0 ? '' : value.slice(eq + 1);
  if (eq < 0) throw new InvalidArgumentError(`expected <id>=<${SEVERITIES.join('|')}>.`);
  if (!isRuleId(id)) throw new InvalidArgumentError(`unknown rule "${id}" (webmail-log rules lists them).`);
  if (!isSeverity(severity)) throw new InvalidArgumentError(`unknown severity "${severity}" (${SEVERITIES.join(', ')}).`);
  return [...previous, [id, severity]];
}

/** Colour: --color/--no-color, else FORCE_COLOR, else NO_COLOR, else only on a terminal. */
export function chooseChalk(flag: boolean | undefined, isTTY: boolean, env: NodeJS.ProcessEnv): ChalkInstance {
  let on: boolean;
  if (flag !== undefined) on = flag;
  else if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') on = !['0', 'false'].includes(env.FORCE_COLOR);
  else if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') on = false;
  else on = isTTY;
  const level = Number(env.FORCE_COLOR);
  return new Chalk({ level: on ? (level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : 2) : 0 });
}

const ANALYSE_EXAMPLES = `
Examples:
  webmail-log analyse errors.log
  webmail-log analyse errors.log.2.gz errors.log.1 errors.log    (a rotation set, read oldest first)
  tail -n 5000 errors.log | webmail-log analyse -
  webmail-log analyse --format json errors.log > report.json
  webmail-log analyse --rule pair-incomplete=off --pair-window 60 errors.log
  webmail-log analyse --strict errors.log && echo clean

Exit status: 0 no error-level violation, 1 at least one (with --strict, warnings too),
2 the check could not be done (bad arguments, an unreadable input).`;

const PROGRAM_EXAMPLES = `
Examples:
  webmail-log analyse errors.log
  webmail-log analyse --format json errors.log.1 errors.log
  webmail-log rules`;

async function analyse(inputs: string[], flags: AnalyseFlags, io: Io): Promise<number> {
  if (inputs.length === 0) {
    if (io.stdinIsTTY) throw new UsageError('no input: name a log file, or pipe one in and give -');
    inputs = ['-'];
  }
  const overrides: Partial<Record<RuleId, Severity>> = {};
  for (const [id, severity] of flags.rule) overrides[id] = severity;
  const findings: Finding[] = [];
  const { summary, inputError } = await analyseInputs(
    inputs,
    { pairWindow: flags.pairWindow, severities: severities(overrides) },
    (f) => findings.push(f),
  );
  findings.sort(compareFindings);
  if (flags.format === 'json') {
    io.out(renderJson(summary, findings));
  } else {
    const chalk = chooseChalk(flags.color, io.stdoutIsTTY, io.env);
    io.out(renderText(summary, findings, { chalk, all: flags.all === true }));
  }
  if (inputError !== null) throw inputError;
  const { error, warning } = summary.violations;
  return error > 0 || (flags.strict === true && warning > 0) ? EXIT_VIOLATIONS : EXIT_OK;
}

function rulesText(): string {
  const width = Math.max(...RULES.map((r) => r.id.length));
  return (
    RULES.map((r) => `${r.id.padEnd(width)}  ${r.severity.padEnd(7)}  ${r.summary}`).join('\n') +
    '\n'
  );
}

/** What the program reads and writes besides its arguments: replaceable in tests. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    env: process.env,
  };
}

function program(io: Io, setStatus: (status: number) => void): Command {
  const root = new Command('webmail-log')
    .description('Checks the error log of a Roundcube webmail service: refresh pairs, ordering, request ids.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      // One style for every error line: `webmail-log: <what is wrong>`.
      // and on one line, a suggestion included.
      outputError: (text, write) => write(`webmail-log: ${text.replace(/^error: /, '').trimEnd().replace(/\n/g, ' ')}\n`),
    })
    .showSuggestionAfterError(true)
    .addHelpText('after', PROGRAM_EXAMPLES);

  root
    .command('analyse')
    .alias('analyze')
    .description('Check one or more logs, read as one stream, and report what breaks the rules.')
    .argument('[inputs...]', 'log files, plain or gzip; - for stdin (the default when stdin is a pipe)')
    .addOption(new Option('--format <format>', 'report format').choices(FORMATS).default('text'))
    .option('--pair-window <seconds>', 'how long a refresh lookup waits for its partner', parseSeconds, DEFAULT_PAIR_WINDOW)
    .option('--rule <id=severity>', 'set a rule to off, warning or error (repeatable)', collectRule, [])
    .option('--strict', 'exit 1 on warnings too')
    .option('--all', 'list every violation and request id (text format)')
    .option('--color', 'colour the text report even when not on a terminal')
    .option('--no-color', 'never colour the text report')
    .addHelpText('after', ANALYSE_EXAMPLES)
    .action(async (inputs: string[], flags: AnalyseFlags) => setStatus(await analyse(inputs, flags, io)));

  root
    .command('rules')
    .description('List the rules: id, default severity, meaning.')
    .addHelpText('after', '\nExample:\n  webmail-log rules')
    .action(() => io.out(rulesText()));

  return root;
}

/** Runs the program on argv (as process.argv) and returns the exit status. */
export async function run(argv: readonly string[], io: Io = processIo()): Promise<number> {
  let status = EXIT_OK;
  try {
    const root = program(io, (s) => (status = s));
    if (argv.length <= 2) {
      io.err(root.helpInformation());
      return EXIT_TROUBLE;
    }
    await root.parseAsync(argv as string[]);
    return status;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_TROUBLE;
    if (err instanceof UsageError || err instanceof InputError) {
      io.err(`webmail-log: ${err.message}\n`);
      return EXIT_TROUBLE;
    }
    io.err(`webmail-log: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    if (io.env.WEBMAIL_LOG_DEBUG) io.err(`${(err as Error)?.stack}\n`);
    return EXIT_TROUBLE;
  }
}
