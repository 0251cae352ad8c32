// The order inputs are read in (SPEC §6): members of one rotation set (`errors.log`,
// `errors.log.1`, `errors.log.2.gz`, …) oldest first, the set in the place of its first
// member given; other inputs in the order given.

const ROTATED = /^(.*)\.(\d+)(?:\.gz)?$/;

interface Member {
  path: string;
  /** The rotation number; -1 for the bare name, which is the newest. */
  generation: number;
}

export function readingOrder(paths: readonly string[]): string[] {
  const sets = new Map<string, Member[]>();
  const order: Member[][] = [];
  for (const path of paths) {
    let base = path;
    let generation = -1;
    const m = path === '-' ? null : ROTATED.exec(path);
    if (m !== null && m[1] !== '') {
      base = m[1];
      generation = Number(m[2]);
    }
    // stdin is never a member of a set; give each its own.
    const key = path === '-' ? `-\0${order.length}` : base;
    let set = sets.get(key);
    if (set === undefined) {
      set = [];
      sets.set(key, set);
      order.push(set);
    }
    set.push({ path, generation });
  }
  const out: string[] = [];
  for (const set of order) {
    // Stable: members with the same number stay in the order given.
    set.sort((a, b) => b.generation - a.generation);
    for (const m of set) out.push(m.path);
  }
  return out;
}
