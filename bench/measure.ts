// Runs the CLI in this process and then writes its peak RSS to fd 3: the process is the
// program itself, with no wrapper of its own in the figures. The bench times the process
// from outside, start to exit.

import '../src/heap.js';
import { writeSync } from 'node:fs';
import { run } from '../src/cli.js';
import { processIo } from '../src/io.js';

const status = await run(process.argv, processIo());
writeSync(3, JSON.stringify({ status, maxRssKiB: process.resourceUsage().maxRSS }) + '\n');
process.exitCode = status;
