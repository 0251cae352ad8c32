// What bin/webmail-log.js runs: the heap's settings, then the program. It is
// bundled with every module it imports into dist/bundle (scripts/bundle.mjs): Node
// loads a few files instead of sixty, each opened, read and resolved on its own (about
// 60 ms of a run's start: a fourth of a run on a small log).

import { tuneHeap } from './heap.js';
import { main } from './main.js';

// Once every module is loaded, before the heap has grown (heap.ts).
tuneHeap();
const status = await main();
// Ended here rather than when Node has wound down by itself (the parsing workers ended,
// each thread's heap taken apart): from the report's last byte to the exit, 25-38 ms of
// *short*'s 1 GB by default, 17-25 so (four interleaved runs each). process.exit drops
// what stdout and stderr still hold, so they hand it on first: an empty write's callback
// comes after every write before it.
for (const stream of [process.stdout, process.stderr]) {
  if (stream.writableLength > 0 && !stream.destroyed) await new Promise((resolve) => stream.write('', resolve));
}
process.exit(status);
