// Runs the CLI in this process and then writes its wall time and peak RSS to fd 3, so
// the benchmark measures the real program without a wrapper of its own in the figures.

import '../src/heap.js';
import { writeSync } from 'node:fs';
import { run } from '../src/cli.js';
import { processIo } from '../src/io.js';

const started = process.hrtime.bigint();
const status = await run(process.argv, processIo());
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
writeSync(3, JSON.stringify({ status, seconds, maxRssKiB: process.resourceUsage().maxRSS }) + '\n');
process.exitCode = status;
