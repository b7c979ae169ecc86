#!/usr/bin/env bash
# The soak (docs/operations/soak.md): a prober and an aggregator as `healthmesh` processes of their own, restarted
# on a timer against one broker and the loopback farm, sampled for heap, RSS, threads, descriptors and consumer lag;
# exit 0 when every bound held; 1 on growth beyond the stated bounds, a false state event or the wall-time limit;
# 3 when the roles never reached a steady start in the time they had (no verdict: the machine was too loaded).
#   bench/scripts/soak.sh ci     at most 11 minutes of wall time: 500 targets at 10 s, an 8-minute clock (cut to
#                                fit the limit after a slow start), samples every 15 s, restarts every 100 s
#                                (the CI variant: modest CPU, meant to run in the background beside other tests)
#   bench/scripts/soak.sh long   60 minutes, 10,000 targets at 10 s, samples every 30 s, restarts every 5 min
# More `bench soak` flags may follow the tier (they win). Writes soak.csv, soak.svg, summary.md and the roles' logs
# into $SOAK_OUT (default bench/target/soak-<tier>), whose contents are replaced.
# Needs only bench/target/bench.jar and cli/target/healthmesh-cli.jar (with cli/target/lib/): mvn -B verify builds
# them, or mvn -q package -DskipTests.
set -euo pipefail
cd "$(dirname "$0")/../.."
tier="${1:-}"
shift || true
case "$tier" in
  ci) flags=(--targets 500 --flapping 4 --interval 10s --duration 8m --sample-every 15s --restart-every 100s
             --warmup 60s --time-limit 630s)
      wall=11m ;;
  long) flags=(--targets 10000 --flapping 5 --interval 10s --duration 60m --sample-every 30s --restart-every 5m
             --warmup 2m --ready-timeout 30m)
      wall=100m ;;
  *) echo "usage: $0 ci|long [bench soak flags]" >&2; exit 2 ;;
esac
for jar in bench/target/bench.jar cli/target/healthmesh-cli.jar; do
  if [ ! -f "$jar" ]; then
    echo "$jar is missing: build it first (mvn -q package -DskipTests)" >&2
    exit 2
  fi
done
out="${SOAK_OUT:-bench/target/soak-$tier}"
rm -rf "$out" && mkdir -p "$out/jars"
# run from copies: a build beside the soak (CI runs `mvn verify` meanwhile) rewrites the jars in place
cp bench/target/bench.jar cli/target/healthmesh-cli.jar "$out/jars/"
cp -r cli/target/lib "$out/jars/lib"
# the broker, the registry and the farm share this JVM (G1: short pauses, the farm answers in them); the roles
# get 256 MiB each. `timeout` is the backstop of --time-limit: SIGTERM runs the soak's hooks, which kill the roles.
set +e
timeout --kill-after=20s "$wall" java -Xmx768m -jar "$out/jars/bench.jar" soak "${flags[@]}" \
  --cli-jar "$out/jars/healthmesh-cli.jar" --out "$out" "$@" > "$out/soak.out" 2> "$out/soak.err"
rc=$?
set -e
# the short summary: the verdict, the bounds broken, one line per series
grep -E '^(soak verdict|### soak|- )' "$out/soak.out" | grep -vE '^- (plan|machine|series):' || true
if [ "$rc" -eq 3 ]; then
  grep -h "Embedded Kafka started\|definitions published\|started as pid" "$out/soak.err" | cut -c1-160 || true
fi
if [ "$rc" -eq 2 ]; then
  head -3 "$out/soak.err" >&2
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "soak verdict: FAIL (stopped by the $wall wall-time limit; see $out/soak.err)"
  rc=1
fi
echo "soak $tier exit $rc; output in $out (soak.out, soak.err, summary.md, soak.svg)"
exit "$rc"
