#!/usr/bin/env bash
# Where the prober's CPU goes, kernel included: one prober-only throughput phase of the load driver, with
# async-profiler (CPU samples every 1 ms, kernel stacks included) attached to the prober for part of the measured
# window, then a summary by thread group and the top frames of each group.
#
#   bash bench/scripts/profile-prober.sh NAME [TCP|HTTP] [SECONDS] [bench load options ...]
#
# Writes bench/target/profile/NAME.{md,log,collapsed,summary.txt}. The profiler comes from Maven Central
# (tools.profiler:async-profiler, the version below) into the local Maven repository on first use.
#
# Why not JFR alone: JFR's execution samples stop at the JVM's edge, and 87 % of the probe loops' samples are in the
# kernel (connect, the loopback handshake, close); JFR also cut some of the producer thread's stacks short
# (docs/BENCHMARKS.md, "Runs of 2026-12-05, morning"). async-profiler records both sides of each stack.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] && [[ $1 =~ ^[A-Za-z0-9._-]+$ ]] || { sed -n '2,13p' "$0"; exit 2; }
NAME=$1; shift
PROTOCOL=${1:-TCP}; [ $# -ge 1 ] && shift
SECONDS_PROFILED=${1:-20}; [ $# -ge 1 ] && shift
case $PROTOCOL in
  TCP) TARGETS=(--tcp-targets 16000 --http-targets 0); COUNT=16000 ;;
  HTTP) TARGETS=(--tcp-targets 0 --http-targets 8000); COUNT=8000 ;;
  *) echo "protocol: $PROTOCOL (expected: TCP or HTTP)" >&2; exit 2 ;;
esac
[[ $SECONDS_PROFILED =~ ^[0-9]+$ ]] && [ "$SECONDS_PROFILED" -ge 5 ] && [ "$SECONDS_PROFILED" -le 300 ] \
  || { echo "seconds: $SECONDS_PROFILED (expected: 5..300)" >&2; exit 2; }

AP_VERSION=4.1
AP_JAR=$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar
if [ ! -f "$AP_JAR" ]; then
  mvn -B -q dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION
fi
OUT=bench/target/profile
mkdir -p "$OUT/lib"
ARCH=$(uname -m); case $ARCH in x86_64) ARCH=linux-x64 ;; aarch64) ARCH=linux-arm64 ;; esac
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract(sys.argv[2], sys.argv[3])' \
  "$AP_JAR" "$ARCH/libasyncProfiler.so" "$OUT/lib"
LIB=$(realpath "$OUT/lib/$ARCH/libasyncProfiler.so")

JAR=bench/target/bench.jar
[ -f "$JAR" ] || mvn -B -q -pl bench -am package -DskipTests
ulimit -n "$(ulimit -Hn)"
# the window outlasts the profile by 10 s: the profile starts 3 s into it and the report's figures cover it all
java -Xmx2g -jar "$JAR" load --no-peers "${TARGETS[@]}" --detect-targets 0 \
  --capacity-targets 0 --aggregator-results 0 --no-publish-cost --window-s $((SECONDS_PROFILED + 10)) "$@" \
  --out "$OUT/$NAME.md" > "$OUT/$NAME.log" 2>&1 &
DRIVER=$!
trap 'kill $DRIVER 2>/dev/null || true' EXIT

for _ in $(seq 1 300); do
  grep -q "$PROTOCOL $COUNT targets: warm-up" "$OUT/$NAME.log" 2>/dev/null && break
  kill -0 $DRIVER 2>/dev/null || { echo "the load driver ended before its window; see $OUT/$NAME.log" >&2; exit 1; }
  sleep 1
done
PROBER=$(pgrep -f "WorkerMain prober" | head -1)
[ -n "$PROBER" ] || { echo "no prober process found" >&2; exit 1; }
sleep 3
# jcmd splits its arguments on '=', so the profiler's options go in quotes of their own
jcmd "$PROBER" JVMTI.agent_load "$LIB" "\"start,event=cpu,interval=1ms,threads\"" > /dev/null
echo "profiling prober $PROBER for $SECONDS_PROFILED s"
sleep "$SECONDS_PROFILED"
jcmd "$PROBER" JVMTI.agent_load "$LIB" "\"stop,collapsed,file=$(realpath "$OUT")/$NAME.collapsed\"" > /dev/null
wait $DRIVER
trap - EXIT
python3 bench/scripts/profile-summary.py "$OUT/$NAME.collapsed" | tee "$OUT/$NAME.summary.txt"
grep "^| $PROTOCOL" "$OUT/$NAME.md" || true
