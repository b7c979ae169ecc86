#!/usr/bin/env bash
# The detection phase alone (`bench load`, no peers, no publishing cost), with the aggregator's commits split while it
# runs: its /metrics are read every 3 s, and each window prints the commits Kafka Streams made and what each cost on
# average (the producer's flush, the offsets, the end of the transaction). Then the report's latency lines.
#
#   bash bench/scripts/detection-commits.sh NAME [bench load options ...]
#
# e.g. NAME=paced --aggregator-setting commit.paced=true, or --detect-targets 10 for a light load. Writes
# bench/target/detection-commits/NAME.{md,log,commits}. Run two settings one after the other, several times, to
# compare them: on a shared machine only interleaved runs compare.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] && [[ $1 =~ ^[A-Za-z0-9._-]+$ ]] || { sed -n '2,10p' "$0"; exit 2; }
NAME=$1; shift
JAR=bench/target/bench.jar
[ -f "$JAR" ] || mvn -B -q -pl bench -am package -DskipTests
OUT=bench/target/detection-commits
mkdir -p "$OUT"
ulimit -n "$(ulimit -Hn)"

# 60 flipped targets per protocol unless the options say otherwise (picocli refuses an option given twice)
DETECT=(--detect-targets 60)
for arg in "$@"; do [[ $arg == --detect-targets* ]] && DETECT=(); done
BEFORE=$(ls -d /tmp/healthmesh-bench-* 2>/dev/null || true)
java -Xmx2g -jar "$JAR" load --tcp-targets 0 --http-targets 0 --capacity-targets 0 \
  --aggregator-results 0 --no-peers --no-publish-cost "${DETECT[@]}" --out "$OUT/$NAME.md" "$@" \
  > "$OUT/$NAME.log" 2>&1 &
DRIVER=$!
trap 'kill $DRIVER 2>/dev/null || true' EXIT

# the driver's work directory is the new /tmp/healthmesh-bench-*; its aggregator logs its HTTP port once started
PORT=""
for _ in $(seq 1 600); do
  for dir in /tmp/healthmesh-bench-*; do
    grep -qxF "$dir" <<< "$BEFORE" && continue
    PORT=$(grep -so 'started: http port [0-9]*' "$dir/aggregator.log" | awk '{ print $NF }' | head -1) || true
    [ -n "$PORT" ] && break
  done
  [ -n "$PORT" ] && break
  kill -0 $DRIVER 2>/dev/null || break
  sleep 0.5
done
[ -n "$PORT" ] || { echo "the aggregator never logged its port; see $OUT/$NAME.log" >&2; exit 1; }

# one line per scrape: time, flush ns, end-of-transaction ns, offsets ns, commits, records processed, the stream
# thread's largest lag on the results topic (Kafka's metric names, in the order the exposition lists them), and the
# aggregator's own status-change delay (probe completion -> event written, the worst of the last 60-90 s; -1 before
# the first status change and in a span without one)
SCRAPES="$OUT/$NAME.scrapes"
: > "$SCRAPES"
while kill -0 $DRIVER 2>/dev/null; do
  curl -s --max-time 2 "http://127.0.0.1:$PORT/metrics" 2>/dev/null | awk -v t="$(date +%s)" '
    /^kafka_producer_metrics_flush_time_ns_total/ { f = $2 }
    /^kafka_producer_metrics_txn_commit_time_ns_total/ { c = $2 }
    /^kafka_producer_metrics_txn_send_offsets_time_ns_total/ { o = $2 }
    /^kafka_stream_thread_metrics_commit_total/ { n = $2 }
    /^kafka_stream_thread_metrics_process_total/ { p = $2 }
    /^kafka_consumer_fetch_manager_metrics_records_lag_max\{.*probe-results/ { if ($2 != "NaN" && $2 > l) l = $2 }
    /^healthmesh_aggregator_status_change_delay_max_seconds / { if ($2 != "NaN") s = $2 }
    END { if (n != "") print t, f, c, o, n, p + 0, l + 0, (s == "" ? -1 : s) }' >> "$SCRAPES" || true
  sleep 3
done
wait $DRIVER || { echo "the driver failed; see $OUT/$NAME.log" >&2; exit 1; }
trap - EXIT

awk 'NR > 1 && $5 > n {
       d = $5 - n
       printf "%s  commits %3d  flush %5.1f  offsets %5.1f  end of transaction %5.1f  ms per commit  processed %6.0f/s  lag max %d\n",
         strftime("%H:%M:%S", $1), d, ($2 - f) / 1e6 / d, ($4 - o) / 1e6 / d, ($3 - c) / 1e6 / d, ($6 - p) / ($1 - t), $7
     }
     { f = $2; c = $3; o = $4; n = $5; p = $6; t = $1 }' "$SCRAPES" | tee "$OUT/$NAME.commits"
grep -E 'probe completion|of which|^\| (TCP|HTTP) \|' "$OUT/$NAME.md"
# the product's own view of the first leg, to set beside the report's "completion -> aggregator wrote": the last
# scrape (its window of 60-90 s holds the measured flips) and the worst (the aggregator's start included)
awk '$8 >= 0 { last = $8; if ($8 > w) w = $8 }
     END { if (last != "") printf "healthmesh_aggregator_status_change_delay_max_seconds: last scrape %.1f ms, worst scrape %.1f ms\n", last * 1000, w * 1000
           else print "healthmesh_aggregator_status_change_delay_max_seconds: no status change seen" }' "$SCRAPES"
