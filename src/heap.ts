// V8's heap, sized for a tool that may run for months beside the service it watches.
// Imported first, before the heap has grown.
//
// - The young generation grows to 3 × 16 MiB under a high allocation rate (entries come
//   by the million) and keeps that memory. 2 MiB semi-spaces cost no measurable speed and
//   hold the busy log's peak RSS by default at 123-127 MiB (4 MiB: 128-131), three
//   interleaved runs each; the short-session log ran as fast with either.
// - The old generation grows by a factor of up to 4 over what is live after a full
//   collection: 20 MiB live became 80 MiB of heap, most of it garbage, when a report of
//   100,000 request ids was made. Growing by 5 % (V8 still adds a minimum step) holds the
//   peak RSS of that log from 203 to 177 MiB, and of a stream of a million ids from 215
//   to 175 MiB, at the same speed (npm run bench).

import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--max-semi-space-size=2');
setFlagsFromString('--heap-growing-percent=5');
