#!/usr/bin/env bash
# The short benchmark (under 2 minutes of running on 2 cores): healthmesh's prober and aggregator against the
# loopback farm, HAProxy and blackbox_exporter side by side. Writes bench/target/bench-report.md.
# Usage: bench/scripts/short.sh [more `bench load` flags; --help lists them]
set -euo pipefail
cd "$(dirname "$0")/../.."
# the driver JVM holds the broker and the farm's sockets: at 10,000 probes/s 20,000 descriptors ran out once
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
bash bench/scripts/install-peers.sh
if [ ! -f bench/target/bench.jar ]; then
  mvn -B -q -pl bench -am package -DskipTests
fi
exec java -Xmx2g -jar bench/target/bench.jar load --short "$@"
