// A progress bar on stderr for large inputs: only on a terminal, never in CI, and
// wiped before the report is printed.

/** Inputs smaller than this are read too fast for a bar to help. */
export const PROGRESS_FROM = 50 * 1000 * 1000;
const WIDTH = 30;
const EVERY_MS = 100;

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(0)} MB`;
}

export class Progress {
  private done = 0;
  private drawnAt = 0;
  private drawn = false;
  private readonly started: number;

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** `bytes` more have been read. */
  add(bytes: number): void {
    this.done += bytes;
    const t = this.now();
    if (t - this.drawnAt < EVERY_MS) return;
    this.drawnAt = t;
    const share = Math.min(1, this.done / this.total);
    const filled = Math.round(share * WIDTH);
    const seconds = Math.max(0.001, (t - this.started) / 1000);
    this.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${megabytes(this.done)} of ${megabytes(this.total)}  ${megabytes(this.done / seconds)}/s`,
    );
    this.drawn = true;
  }

  /** Wipes the bar, so that nothing of it stays before the report. */
  clear(): void {
    if (this.drawn) this.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** A bar is wanted when stderr is a terminal and this is not a CI job. */
export function wantProgress(stderrIsTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
  return stderrIsTTY && !ci;
}
