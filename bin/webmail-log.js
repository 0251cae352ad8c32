#!/usr/bin/env node
import '../dist/heap.js';
import { main } from '../dist/main.js';
process.exitCode = await main();
