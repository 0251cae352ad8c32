#!/bin/sh
":" //; [ -z "${NODE_EXTRA_CA_CERTS-}" ] || exec env -u NODE_EXTRA_CA_CERTS node "$0" "$@"; exec node "$0" "$@"

// Run as a command, this file is a shell script for its first two lines, and they start
// Node on it (JavaScript from there on: the second line is a string and a comment to it).
// Node 20 reads every certificate of NODE_EXTRA_CA_CERTS, and its own root
// certificates, the moment it starts, whenever that variable is set (Node 23 reads them
// when a TLS connection first needs them). Where it names the system's bundle (144
// certificates), that took 35 ms of every run (`--version`: 80 ms against 45), 55 of
// *short*'s 1 GB (1.315 s against 1.26, six interleaved runs each). webmail-log opens no
// TLS connection, so it starts Node without that variable.
// Run as `node bin/webmail-log.js …`, the two lines do nothing: to Node the first is a
// comment, the second a string.
import '../dist/bundle/webmail-log.js';
