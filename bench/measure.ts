// Runs the program as bin/webmail-log.js does (its bundle, built by npm's lifecycle) in
// this process and, as it exits, writes its peak RSS to fd 3: the process is the program
// itself, with no wrapper of its own in the figures. The bench times the process from
// outside, start to exit.

import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(3, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }) + '\n'));
await import(new URL('../../dist/bundle/webmail-log.js', import.meta.url).href);
