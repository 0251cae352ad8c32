// Property tests draw from one fixed seed, so a red run is reproducible and never by
// chance: FC_SEED=<n> npm test replays another. The global setup prints it once.

import fc from 'fast-check';

export const DEFAULT_SEED = 20261122;

export function fcSeed(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.FC_SEED;
  if (text === undefined || text === '') return DEFAULT_SEED;
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, not "${text}"`);
  return seed;
}

fc.configureGlobal({ seed: fcSeed() });
