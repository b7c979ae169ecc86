#!/usr/bin/env bash
# The full benchmark of docs/BENCHMARKS.md (about 12 minutes on 2 cores): the short mode's phases with more targets
# and longer windows, plus heap per target and the 100k-target capacity phase, the aggregator's catch-up
# throughput with one and two instances, and the publishing cost per result of each compression and linger.
# The prober and the aggregator are recorded with JFR; their hot spots are printed at the end.
# Usage: bench/scripts/full.sh [more `bench load` flags; --help lists them]
set -euo pipefail
cd "$(dirname "$0")/../.."
# the driver JVM holds the broker and the farm's sockets: at 10,000 probes/s 20,000 descriptors ran out once
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
bash bench/scripts/install-peers.sh
if [ ! -f bench/target/bench.jar ]; then
  mvn -B -q -pl bench -am package -DskipTests
fi
jfr=bench/target/jfr
rm -rf "$jfr" && mkdir -p "$jfr"
java -Xmx3g -jar bench/target/bench.jar load --jfr "$jfr" \
  --out bench/target/bench-report.md "$@"
for f in "$jfr"/*.jfr; do
  [ -f "$f" ] && java -jar bench/target/bench.jar jfr-hot "$f" 15
done
