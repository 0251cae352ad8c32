// The command line: argv → one options object per command → the command → an exit status.

import { hostname } from 'node:os';
import { Chalk, type ChalkInstance } from 'chalk';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ALPHABET_NAMES, isAlphabetName, type AlphabetName } from './analyse/alphabet.js';
import { RULE_IDS, isRuleId, isSeverity, SEVERITIES, type RuleId, type Severity } from './analyse/rules.js';
import { parseWhen } from './analyse/selection.js';
import { analyse } from './commands/analyse.js';
import { explain, topicList, topics } from './commands/explain.js';
import { merge } from './commands/merge.js';
import { parseOutputSpec, withOutputFile } from './commands/outputs.js';
import { rulesText } from './commands/rules.js';
import { loadConfig } from './config.js';
import { InputError, OutputError, UsageError } from './errors.js';
import { exampleList, paragraph, section, type Example } from './help-text.js';
import { processIo, type Io } from './io.js';
import { defaultJobs, MAX_DEFAULT_JOBS } from './parallel/read.js';
import { EXIT_OK, EXIT_TROUBLE } from './process.js';
import { FORMATS, REPORTERS } from './report/registry.js';
import { reportWidth, termList } from './report/wrap.js';
import { didYouMean } from './suggest.js';
import { VERSION } from './version.js';

export { processIo, type Io };

const DEFAULT_PAIR_WINDOW = 30;
const DEFAULT_FLUSH_AFTER_MS = 1000;
const DEFAULT_GAP_MINUTES = 5;

interface AnalyseFlags {
  format?: string[];
  outputFile?: string;
  pairWindow?: number;
  rule?: [RuleId, Severity][];
  config?: string;
  requestIdAlphabet?: AlphabetName;
  strict?: boolean;
  quiet?: boolean;
  maxWarnings?: number;
  all?: boolean;
  color?: boolean;
  host?: string;
  logName?: string;
  metricsListen?: string;
  follow?: boolean;
  fromStart?: boolean;
  state?: string;
  flushAfter?: number;
  jobs?: number;
  since?: number;
  until?: number;
  requestId?: string[];
  segment?: string[];
  gap?: number;
}

/** Inputs holding less than this in all (measured on 2 cores): threads cost more to start than they save; an explicit --jobs lifts it. */
const PARALLEL_FROM = 200 * 1000 * 1000;

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError('expected a number of seconds, 0 or more.');
  }
  return seconds;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number, 0 or more.');
  return n;
}

function parseWhenFlag(value: string): number {
  const when = parseWhen(value, Date.now() / 1000);
  if (when === null) throw new InvalidArgumentError('expected a time like 2026-11-21T10:00:00+01:00 or 2026-11-21, or an age like 30m, 2h, 3d.');
  return when;
}

function parseAlphabet(value: string): AlphabetName {
  if (!isAlphabetName(value)) throw new InvalidArgumentError(`expected ${ALPHABET_NAMES.join(', ')}.`);
  return value;
}

function parseMinutes(value: string): number {
  const minutes = Number(value);
  if (value.trim() === '' || !Number.isFinite(minutes) || minutes <= 0) throw new InvalidArgumentError('expected a number of minutes above 0.');
  return minutes;
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number, 1 or more.');
  return n;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parseMilliseconds(value: string): number {
  const ms = Number(value);
  if (value.trim() === '' || !Number.isInteger(ms) || ms < 0) {
    throw new InvalidArgumentError('expected a whole number of milliseconds, 0 or more.');
  }
  return ms;
}

function collectRule(value: string, previous: [RuleId, Severity][] = []): [RuleId, Severity][] {
  const eq = value.indexOf('=');
  if (eq < 0) throw new InvalidArgumentError(`expected <id>=<${SEVERITIES.join('|')}>.`);
  const id = value.slice(0, eq);
  const severity = value.slice(eq + 1);
  if (!isRuleId(id)) throw new InvalidArgumentError(`unknown rule "${id}"${didYouMean(id, RULE_IDS)} (webmail-log rules lists them).`);
  if (!isSeverity(severity)) throw new InvalidArgumentError(`unknown severity "${severity}" (${SEVERITIES.join(', ')}).`);
  return [...previous, [id, severity]];
}

/**
 * `--color=always|auto|never` (as ripgrep, fd and git take it) as the flags commander
 * knows: an optional value of --color would swallow the next argument, a log's name.
 */
function colorWords(argv: readonly string[]): string[] {
  return argv.flatMap((arg) => {
    if (!arg.startsWith('--color=')) return [arg];
    const when = arg.slice('--color='.length);
    if (when === 'always') return ['--color'];
    if (when === 'never') return ['--no-color'];
    if (when === 'auto') return [];
    throw new UsageError(`--color takes always, auto or never, not "${when}"${didYouMean(when, ['always', 'auto', 'never'])}`);
  });
}

/**
 * Colour: --color/--no-color (or always/never), else FORCE_COLOR, else NO_COLOR, else
 * only on a terminal that is not TERM=dumb.
 */
export function chooseChalk(flag: boolean | undefined, isTTY: boolean, env: NodeJS.ProcessEnv): ChalkInstance {
  let on: boolean;
  if (flag !== undefined) on = flag;
  else if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') on = !['0', 'false'].includes(env.FORCE_COLOR);
  else if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') on = false;
  else on = isTTY && env.TERM !== 'dumb';
  const level = Number(env.FORCE_COLOR);
  return new Chalk({ level: on ? (level >= 1 && level <= 3 ? (level as 1 | 2 | 3) : 2) : 0 });
}

const ANALYSE_EXAMPLES: readonly Example[] = [
  ['webmail-log analyse errors.log'],
  ['webmail-log analyse errors.log.2.gz errors.log.1 errors.log', 'a rotation set, read oldest first'],
  ['webmail-log analyse --format json errors.log > report.json'],
  ['webmail-log analyse --rule pair-incomplete=off --pair-window 60 errors.log'],
  ['webmail-log analyse --strict errors.log && echo clean'],
  ['tail -f errors.log | webmail-log analyse -', 'each violation as it is found'],
  ['webmail-log analyse --follow errors.log', 'like tail -F: survives rotation'],
  ['webmail-log analyse -f --format ndjson errors.log | jq -c \'select(.rule)\'', 'each violation as a line of JSON'],
  ['webmail-log analyse --format github --format sarif=out.sarif errors.log', 'in CI: annotations, and a SARIF file'],
  ['webmail-log analyse --quiet --max-warnings 10 errors.log'],
  ['webmail-log analyse --since 2h --request-id 3fa9c2d1 errors.log', 'one session, the last two hours'],
];

const EXIT_STATUS =
  'Exit status: 0 no error-level violation, 1 at least one (with --strict, warnings too), ' +
  '2 the check could not be done (bad arguments, an unreadable input). A live run stopped ' +
  'with Ctrl-C or SIGTERM prints its summary and exits 0 or 1 for what it saw.';

const PROGRAM_EXAMPLES: readonly Example[] = [
  ['webmail-log analyse errors.log'],
  ['webmail-log analyse --format json errors.log.1 errors.log'],
  ['tail -f errors.log | webmail-log analyse -'],
  ['webmail-log explain calendar-tables-missing'],
  ['webmail-log merge web1.json web2.json'],
  ['webmail-log rules'],
];

const MERGE_EXAMPLES: readonly Example[] = [
  ['webmail-log merge web1.json web2.json web3.json'],
  ['webmail-log merge --format json=fleet.json --format html=fleet.html web*.json'],
  ['webmail-log merge fleet.json web4.json', 'a merged report merges again'],
];

const EXPLAIN_EXAMPLES: readonly Example[] = [
  ['webmail-log explain pair-order'],
  ['webmail-log explain calendar-tables-missing'],
  ['webmail-log explain "database is locked"'],
  ['webmail-log explain', 'lists the topics'],
];

/** A command in the list of commands: its name and arguments, as commander writes them. */
function commandTerm(cmd: Command): string {
  const args = cmd.registeredArguments.map((a) => {
    const name = a.name() + (a.variadic ? '...' : '');
    return a.required ? `<${name}>` : `[${name}]`;
  });
  return [cmd.name(), ...args].join(' ');
}

function program(io: Io, setStatus: (status: number) => void, options: { pollMs?: number }): Command {
  // The help's width: the terminal's, else COLUMNS, else 80 as commander's own.
  const width = reportWidth(io.stdoutColumns, io.env, 80);
  const examples = (list: readonly Example[]) => section(list.length === 1 ? 'Example' : 'Examples', exampleList(list, width));
  const root = new Command('webmail-log')
    .description('Checks the error log of a Roundcube webmail service: refresh pairs, ordering, request ids.')
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: io.out,
      writeErr: io.err,
      // Commander's lists and the texts below them (help-text.ts) to one width.
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
      // One style for every error line: `webmail-log: <what is wrong>`,
      // and on one line, a suggestion included.
      outputError: (text, write) => write(`webmail-log: ${text.replace(/^error: /, '').trimEnd().replace(/\n/g, ' ')}\n`),
    })
    .showSuggestionAfterError(true)
    // Commands by name and arguments: with the alias and [options], the list's first column
    // left less than the 40 columns commander wants to wrap descriptions in, and it let
    // them run past the width; 24 lets the options wrap on a narrow terminal too.
    .configureHelp({ subcommandTerm: commandTerm, minWidthToWrap: 24 })
    .addHelpText('after', () => examples(PROGRAM_EXAMPLES));

  root
    .command('analyse')
    .alias('analyze')
    .description('Check one or more logs, read as one stream, and report what breaks the rules.')
    .argument('[inputs...]', 'log files, plain or gzip; - for stdin (the default when stdin is a pipe)')
    .option('--format <format[=file]>', 'report format (default text, the formats are below); =file writes it to that file (repeatable, one on stdout)', collect)
    .option('-o, --output-file <file>', 'write the report to this file (as --format <format>=<file>)')
    .option('--pair-window <seconds>', `how long a refresh lookup waits for its partner (default ${DEFAULT_PAIR_WINDOW})`, parseSeconds)
    .option('--rule <id=severity>', 'set a rule to off, warning or error (repeatable)', collectRule)
    .option('--request-id-alphabet <name>', "what request-id-format accepts: hex (the default), php5 (0-9a-v) or php6 (0-9a-zA-Z,-)", parseAlphabet)
    .option('--config <file>', 'settings file (default: webmail-log.config.json here, if there is one)')
    .option('--strict', 'exit 1 on warnings too')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings', parseCount)
    .option('-q, --quiet', 'report errors only (the exit status still counts warnings)')
    .option('--all', 'list every violation and request id (text format)')
    .option('-f, --follow', 'follow the files as they grow, like tail -F (stop with Ctrl-C)')
    .option('--from-start', 'with --follow: read what the files hold first, instead of starting at their end')
    .option('--state <file>', 'with --follow: keep where each file stands in this file, and go on from there after a restart')
    .option('--flush-after <ms>', `on a live input, take an entry as complete after this much quiet (default ${DEFAULT_FLUSH_AFTER_MS})`, parseMilliseconds)
    .option('--since <when>', 'report only from this time: ISO 8601 (2026-11-21T10:00+01:00) or an age (30m, 2h, 3d)', parseWhenFlag)
    .option('--until <when>', 'report only up to this time, written like --since', parseWhenFlag)
    .option('--request-id <id>', 'report only this request id (repeatable)', collect)
    .option('--segment <segment>', 'report only this session segment, cpsess… (repeatable)', collect)
    .option('--gap <minutes>', 'note refresh gaps longer than this (default 5)', parseMinutes)
    .option('-j, --jobs <n>', `threads that parse large files (default: the cores, at most ${MAX_DEFAULT_JOBS}: ${defaultJobs()} here)`, parsePositive)
    .option('--log-name <name>', "the metrics' log label (default: the inputs as given)")
    .option('--metrics-listen <host:port>', 'with --follow or a stream: serve live Prometheus metrics at http://HOST:PORT/metrics')
    .option('--host <name>', `the host the report speaks for (default: this machine's name, ${hostname()})`)
    .option('--color', 'colour the text report even when not on a terminal (--color=always|auto|never too)')
    .option('--no-color', 'never colour the text report')
    .addHelpText('after', () =>
      [section('Formats', termList(FORMATS.map((f) => [f, REPORTERS[f].description]), width)), examples(ANALYSE_EXAMPLES), '', paragraph(EXIT_STATUS, width)].join('\n'),
    )
    .action(async (inputs: string[], flags: AnalyseFlags) => {
      if (inputs.length === 0) {
        // Nothing named: stdin, but only a pipe or a file. A terminal would wait forever, and
        // /dev/null or a closed stdin (`analyse $UNSET_VAR` in CI) would pass as a clean log.
        if (!io.stdinIsReadable) {
          throw new UsageError(`no input: name a log file, or pipe one in (webmail-log analyse errors.log)`);
        }
        inputs = ['-'];
      }
      if (flags.fromStart && !flags.follow) throw new UsageError('--from-start goes with --follow');
      if (flags.state !== undefined && !flags.follow) throw new UsageError('--state goes with --follow');
      // Flags win over the config file, which wins over the defaults.
      const config = loadConfig(flags.config, process.cwd());
      const rules: Partial<Record<RuleId, Severity>> = { ...config.rules };
      for (const [id, severity] of flags.rule ?? []) rules[id] = severity;
      const outputs = withOutputFile((flags.format ?? config.format ?? ['text']).map(parseOutputSpec), flags.outputFile);
      const status = await analyse(
        {
          inputs,
          outputs,
          pairWindow: flags.pairWindow ?? config.pairWindow ?? DEFAULT_PAIR_WINDOW,
          rules,
          requestIdAlphabet: flags.requestIdAlphabet ?? config.requestIdAlphabet ?? 'hex',
          strict: flags.strict === true,
          quiet: flags.quiet === true,
          maxWarnings: flags.maxWarnings ?? null,
          all: flags.all === true,
          chalk: chooseChalk(flags.color, io.stdoutIsTTY, io.env),
          width: reportWidth(io.stdoutColumns, io.env),
          host: flags.host ?? hostname(),
          logName: flags.logName ?? null,
          metricsListen: flags.metricsListen ?? null,
          follow: flags.follow === true,
          fromStart: flags.fromStart === true,
          statePath: flags.state ?? null,
          flushAfterMs: flags.flushAfter ?? DEFAULT_FLUSH_AFTER_MS,
          pollMs: options.pollMs,
          selection: {
            since: flags.since ?? null,
            until: flags.until ?? null,
            requestIds: flags.requestId ? new Set(flags.requestId) : null,
            segments: flags.segment ? new Set(flags.segment) : null,
          },
          gapSeconds: (flags.gap ?? DEFAULT_GAP_MINUTES) * 60,
          jobs: flags.jobs ?? defaultJobs(),
          parallelFrom: flags.jobs === undefined ? PARALLEL_FROM : 0,
        },
        io,
      );
      setStatus(status);
    });

  root
    .command('merge')
    .description('Merge the JSON reports of several hosts into one fleet report, exactly.')
    .argument('<reports...>', 'reports written by analyse --format json --host NAME (or by merge)')
    .option('--format <format[=file]>', 'report format (default text); =file writes it to that file (repeatable, one on stdout)', collect)
    .option('-o, --output-file <file>', 'write the report to this file')
    .option('--strict', 'exit 1 on warnings too')
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings', parseCount)
    .option('--all', 'list every violation and request id (text format)')
    .option('--color', 'colour the text report even when not on a terminal')
    .option('--no-color', 'never colour the text report')
    .addHelpText('after', () => examples(MERGE_EXAMPLES))
    .action((reports: string[], flags: { format?: string[]; outputFile?: string; strict?: boolean; maxWarnings?: number; all?: boolean; color?: boolean }) => {
      const outputs = withOutputFile((flags.format ?? ['text']).map(parseOutputSpec), flags.outputFile);
      if (outputs.some((spec) => spec.format === 'ndjson')) throw new UsageError('merge writes whole reports: ndjson is for a live analyse');
      setStatus(
        merge(
          {
            reports,
            outputs,
            strict: flags.strict === true,
            maxWarnings: flags.maxWarnings ?? null,
            chalk: chooseChalk(flags.color, io.stdoutIsTTY, io.env),
            width: reportWidth(io.stdoutColumns, io.env),
            all: flags.all === true,
          },
          io,
        ),
      );
    });

  root
    .command('explain')
    .description('Explain a rule or a diagnosis: what it means, what to do, an example.')
    .argument('[topic]', 'a rule id, a diagnosis id, or words from a log line ("database is locked")')
    .addHelpText('after', () => examples(EXPLAIN_EXAMPLES))
    .action((topic: string | undefined) => {
      if (topic === undefined) {
        io.out(topicList(reportWidth(io.stdoutColumns, io.env)));
        return;
      }
      const text = explain(topic, reportWidth(io.stdoutColumns, io.env));
      if (text === null) throw new UsageError(`nothing known about "${topic}"${didYouMean(topic, topics())} (webmail-log explain lists the topics)`);
      io.out(text);
    });

  root
    .command('rules')
    .description('List the rules: id, default severity, meaning.')
    .addHelpText('after', () => examples([['webmail-log rules']]))
    .action(() => io.out(rulesText(reportWidth(io.stdoutColumns, io.env))));

  return root;
}

/** Runs the program on argv (as process.argv) and returns the exit status. */
export async function run(argv: readonly string[], io: Io = processIo(), options: { pollMs?: number } = {}): Promise<number> {
  let status = EXIT_OK;
  try {
    const root = program(io, (s) => (status = s), options);
    if (argv.length <= 2) {
      io.err(root.helpInformation());
      return EXIT_TROUBLE;
    }
    await root.parseAsync(colorWords(argv));
    return status;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_TROUBLE;
    if (err instanceof UsageError || err instanceof InputError || err instanceof OutputError) {
      io.err(`webmail-log: ${err.message}\n`);
      return EXIT_TROUBLE;
    }
    io.err(`webmail-log: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    if (io.env.WEBMAIL_LOG_DEBUG) io.err(`${(err as Error)?.stack}\n`);
    return EXIT_TROUBLE;
  }
}
