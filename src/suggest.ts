// "Did you mean …?" for a mistyped name: the closest known one, when it is close enough.

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** ` (did you mean "x"?)` for the nearest candidate within a third of its length, else ''. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === null || bestDistance > Math.max(1, Math.floor(best.length / 3))) return '';
  return ` (did you mean "${best}"?)`;
}
