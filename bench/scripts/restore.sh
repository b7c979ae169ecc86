#!/usr/bin/env bash
# The aggregator holding the state of many targets (default 1,000,000): ingest, a restart with its local state and a
# start on an empty state directory (every store restored from its changelog), with RSS and local state size.
# About 10 minutes on 2 cores at 1M targets. Writes bench/target/restore-report.md.
# Usage: bench/scripts/restore.sh [--targets N] [--aggregator-heap 1g]
set -euo pipefail
cd "$(dirname "$0")/../.."
# the driver JVM holds the broker and the farm's sockets: at 10,000 probes/s 20,000 descriptors ran out once
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ ! -f bench/target/bench.jar ]; then
  mvn -B -q -pl bench -am package -DskipTests
fi
exec java -Xmx4g -jar bench/target/bench.jar restore --out bench/target/restore-report.md "$@"
