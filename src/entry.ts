// What bin/webmail-log.js runs: the heap's settings first, then the program. It is
// bundled with every module it imports into dist/bundle (scripts/bundle.mjs): Node
// loads a few files instead of sixty, each opened, read and resolved on its own (about
// 60 ms of a run's start: a fourth of a run on a small log).

import './heap.js';
import { main } from './main.js';

process.exitCode = await main();
