// Whether the inputs make a live stream, one that may never end: followed files, a piped
// stdin, a named pipe. Decided here alone: reports stream, and quiet inputs are flushed,
// only for a live stream.

import { isStreamPath } from './source.js';

export function isLive(inputs: readonly string[], follow: boolean, stdinIsLive: boolean): boolean {
  return follow || (inputs.includes('-') && stdinIsLive) || inputs.some(isStreamPath);
}

/** Whether one input is live (stdin only when it is a pipe or a terminal). */
export function isLiveInput(name: string, stdinIsLive: boolean): boolean {
  return name === '-' ? stdinIsLive : isStreamPath(name);
}
