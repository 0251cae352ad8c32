// The process around the program: a closed pipe (`| head`) ends the run quietly.

import { run } from './cli.js';

export async function main(): Promise<number> {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  return run(process.argv);
}
