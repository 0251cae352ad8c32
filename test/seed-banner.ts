// Prints the property tests' seed once per run (see seed.ts).

import { fcSeed } from './seed.js';

export default function setup(): void {
  process.stdout.write(`property tests: fast-check seed ${fcSeed()} (set FC_SEED to replay another)\n`);
}
