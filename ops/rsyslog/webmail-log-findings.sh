#!/bin/sh
# Ships webmail-log's findings to a central syslog over TCP, one RFC 5424 message per
# violation (and the summary at the end), with octet counting (RFC 6587) so that a
# finding is never split. logger cuts messages at 1 KiB unless told otherwise: -S 65536.
#
#   ops/rsyslog/webmail-log-findings.sh syslog.example.net 514 /path/to/errors.log
set -eu
server=$1
port=$2
shift 2
exec webmail-log analyse --follow --format ndjson "$@" \
  | logger --rfc5424 --octet-count -S 65536 --tcp --server "$server" --port "$port" --tag webmail-log
