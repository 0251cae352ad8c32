// Errors that end the run with exit status 2 and one line on stderr (SPEC §4).

/** Bad arguments: options, rule ids, severities, numbers. */
export class UsageError extends Error {}

/** An input that cannot be read. */
export class InputError extends Error {}

/** A report file that cannot be written. */
export class OutputError extends Error {}
