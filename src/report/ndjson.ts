// `--format ndjson`: one JSON object a line, each violation the moment it is decided and
// the summary last: for programs that follow a live log (jq, a shipper to syslog).

import type { Violation } from '../analyse/violation.js';
import { jsonText } from './json-text.js';
import { summaryLine, violationObject } from './json.js';
import type { Reporter } from './reporter.js';
import { ROW_WARMING } from './row-bytes.js';

export function ndjsonViolation(f: Violation): string {
  return jsonText({ type: 'violation', ...violationObject(f) }) + '\n';
}

export const ndjsonReporter: Reporter = {
  description: 'one JSON object per line: each violation as it is found, the summary last',
  streams: () => true,
  violation: (f) => ndjsonViolation(f),
  // The SPEC §5 document without its violations list, as the last line.
  end: (ctx) => summaryLine(ctx.summary, ctx.host, ctx.pieceBytes),
  warmRows: ROW_WARMING,
};
