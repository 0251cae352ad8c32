// Every report format, by the name --format takes. Adding a format is one file with its
// Reporter and one line here: the names, the help text and the golden tests come from
// this table.

import { githubReporter } from './github.js';
import { gitlabReporter } from './gitlab.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { ndjsonReporter } from './ndjson.js';
import { prometheusReporter } from './prometheus.js';
import type { Reporter } from './reporter.js';
import { sarifReporter } from './sarif.js';
import { textReporter } from './text.js';

export const REPORTERS = {
  text: textReporter,
  json: jsonReporter,
  ndjson: ndjsonReporter,
  github: githubReporter,
  junit: junitReporter,
  sarif: sarifReporter,
  gitlab: gitlabReporter,
  prometheus: prometheusReporter,
  html: htmlReporter,
} as const satisfies Record<string, Reporter>;

export type Format = keyof typeof REPORTERS;

export const FORMATS = Object.keys(REPORTERS) as Format[];

export function isFormat(name: string): name is Format {
  return Object.hasOwn(REPORTERS, name);
}
