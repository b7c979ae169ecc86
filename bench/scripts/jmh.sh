#!/usr/bin/env bash
# The JMH benchmarks of the hot paths (scheduler tick, state-machine step, serde, the status feed and board, the epoll
# registration table, store writes, a probe-results batch per codec, publishing to a real broker),
# one fork each, results also in bench-jmh/target/jmh.json. Usage: bench/scripts/jmh.sh [JMH flags, e.g. a regex]
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f bench-jmh/target/benchmarks.jar ]; then
  mvn -B -q -pl bench-jmh -am package -DskipTests
fi
exec java -jar bench-jmh/target/benchmarks.jar -rf json -rff bench-jmh/target/jmh.json "$@"
