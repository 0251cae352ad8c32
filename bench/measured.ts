// Starts the program for the bench as an operator's shell starts the installed command:
// bin/webmail-log.js run through its own first lines (which start Node without
// NODE_EXTRA_CA_CERTS), with measure.ts loaded into it to report its peak RSS on fd 3.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/webmail-log.js', import.meta.url));
const MEASURE = new URL('./measure.js', import.meta.url).href;

/** The environment of a measured run: this one's, with measure.js preloaded. */
export function measuredEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  // NODE_OPTIONS splits at spaces: a URL has none (they are %20).
  return { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, `--import=${MEASURE}`].filter(Boolean).join(' ') };
}

/** `webmail-log args…` with fd 3 a pipe for measure.js's figures; `stdio` gives fds 0-2. */
export function spawnMeasured(args: string[], stdio: ('pipe' | 'ignore' | 'inherit' | number)[]): ChildProcess {
  return spawn(BIN, args, { stdio: [...stdio, 'pipe'], env: measuredEnv() });
}
