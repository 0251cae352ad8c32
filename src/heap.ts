// V8's heap, sized for a tool that may run for months beside the service it watches.
// Set (tuneHeap) by each thread as it starts, before its heap has grown.
//
// - The young generation starts small and, under a high allocation rate (entries come
//   by the million), doubles up to 2 × 16 MiB and keeps that memory. Its maximum is fixed
//   when the heap is made (`--max-semi-space-size` set here did nothing: the new space
//   still grew to 32 MiB), but its growth factor is read at each growth: 1 keeps it at
//   the size it has now (2 × 1-2 MiB). Starting a worker thread resets V8's flags for the
//   whole process, so a parsing worker sets them too, as it starts; in the 50-170 ms
//   before it does, the main thread's grows to 2 × 4 MiB, and stays so. Peak RSS on 1 GB,
//   at the same speed (interleaved runs): --jobs 1, the busy log 107-111 → 79-80 MiB and
//   the short-session log 129-130 → 97; by default 130-133 → 117-118 and 173-180 → 140.
// - The old generation grows by a factor of up to 4 over what is live after a full
//   collection: 20 MiB live became 80 MiB of heap, most of it garbage, when a report of
//   100,000 request ids was made. Growing by 5 % (V8 still adds a minimum step) holds the
//   peak RSS of that log from 203 to 177 MiB, and of a stream of a million ids from 215
//   to 175 MiB, at the same speed (npm run bench).
// - V8's flags are the process's, and Node keeps its own modules compiled in a code cache
//   that V8 accepts only under the flags it was made with (their hash). A worker started
//   under these flags compiled every module of its bootstrap again: from `new Worker` to
//   its module's first line 100-160 ms against 75-110, alone on an idle machine, and in a
//   run, on cores the reading shares, a worker's CPU profile put some 90 ms in Node's
//   compiling of its internals. So the flags are V8's own while a worker starts (see
//   Parsers), and the worker sets these again once it has. For the same reason they are
//   set once the program's modules are loaded, not before: commander requires
//   child_process (five of Node's modules) as it loads, which took 6-9 ms of every run's
//   start under these flags, against 2.

import { setFlagsFromString } from 'node:v8';

/** Each flag: the setting above, and V8's default for it. */
const FLAGS: [flag: string, ours: number, v8s: number][] = [
  ['semi-space-growth-factor', 1, 2],
  ['heap-growing-percent', 5, 0],
];

/** Sets the flags above (for the whole process). */
export function tuneHeap(): void {
  for (const [flag, ours] of FLAGS) setFlagsFromString(`--${flag}=${ours}`);
}

/** Sets V8's defaults for the same flags: while a worker starts, for Node's code cache to be used. */
export function untuneHeap(): void {
  for (const [flag, , v8s] of FLAGS) setFlagsFromString(`--${flag}=${v8s}`);
}
