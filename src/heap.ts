// V8's heap, sized for a tool that may run for months beside the service it watches.
// Imported first, before the heap has grown.
//
// - The young generation starts small and, under a high allocation rate (entries come
//   by the million), doubles up to 2 × 16 MiB and keeps that memory. Its maximum is fixed
//   when the heap is made (`--max-semi-space-size` set here did nothing: the new space
//   still grew to 32 MiB), but its growth factor is read at each growth: 1 keeps it at
//   the size it has now (2 × 1-2 MiB). Starting a worker thread resets V8's flags for the
//   whole process, so a parsing worker imports this module first, too; in the 50-170 ms
//   before it does, the main thread's grows to 2 × 4 MiB, and stays so. Peak RSS on 1 GB,
//   at the same speed (interleaved runs): --jobs 1, the busy log 107-111 → 79-80 MiB and
//   the short-session log 129-130 → 97; by default 130-133 → 117-118 and 173-180 → 140.
// - The old generation grows by a factor of up to 4 over what is live after a full
//   collection: 20 MiB live became 80 MiB of heap, most of it garbage, when a report of
//   100,000 request ids was made. Growing by 5 % (V8 still adds a minimum step) holds the
//   peak RSS of that log from 203 to 177 MiB, and of a stream of a million ids from 215
//   to 175 MiB, at the same speed (npm run bench).

import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--heap-growing-percent=5');
