// CPU time the hypervisor gave to other guests while this machine's processes were ready
// to run ("steal", the eighth figure of /proc/stat's cpu line), in seconds over all cores.
// On a shared VM a slow run may be a stolen one: the bench prints it beside each figure,
// so that a run is read for what the host allowed it (on the AMD EPYC of the eighty-sixth
// run, 0.6-2 s of CPU during some 4-6 s runs of webmail-log --jobs 1, which took 3.4 s in
// a quiet spell). A run slow with little steal is the machine's own speed.

import { readFileSync } from 'node:fs';

/** USER_HZ: Linux reports /proc/stat in hundredths of a second on every architecture it runs. */
const TICKS_PER_SECOND = 100;

/** Seconds stolen from all cores since boot, or null where /proc/stat cannot be read (not Linux). */
export function stolenSeconds(stat: () => string = () => readFileSync('/proc/stat', 'utf8')): number | null {
  try {
    const line = stat().split('\n', 1)[0];
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'cpu' || fields.length < 9) return null;
    const steal = Number(fields[8]);
    return Number.isFinite(steal) ? steal / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** Starts a watch of the steal: the function it gives returns the seconds stolen since (null where unknown). */
export function stealWatch(): () => number | null {
  const before = stolenSeconds();
  return () => {
    const after = stolenSeconds();
    return before === null || after === null ? null : after - before;
  };
}
