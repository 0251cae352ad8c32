// The program as a process: argv in, an exit status out.

import { run } from './cli.js';
import { exitQuietlyOnClosedStdout } from './process.js';

export async function main(): Promise<number> {
  exitQuietlyOnClosedStdout();
  return run(process.argv);
}
