#!/usr/bin/env node
import '../dist/bundle/webmail-log.js';
