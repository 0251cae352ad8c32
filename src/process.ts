// The process around the program, in one place: exit statuses (SPEC §4), signals, and a
// closed stdout (`| head`), which ends the run quietly.

export const EXIT_OK = 0;
export const EXIT_VIOLATIONS = 1;
export const EXIT_TROUBLE = 2;
/** After a second SIGINT: the shell's 128 + 2. */
export const EXIT_INTERRUPTED = 130;

/**
 * Calls `stop` on the first SIGINT or SIGTERM, so that the reading ends and the summary is
 * printed; a second one exits at once. Returns a function that stops listening.
 */
export function onInterrupt(stop: () => void): () => void {
  let seen = 0;
  const handler = () => {
    if (++seen > 1) {
      process.exit(EXIT_INTERRUPTED);
      return;
    }
    stop();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** A reader of our stdout that went away (`| head -1`) is no error: exit 0, quietly. */
export function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(EXIT_OK);
    throw err;
  });
}
