#!/usr/bin/env bash
# The soak (docs/operations/soak.md): a prober and an aggregator as `healthmesh` processes of their own, restarted
# on a timer against one broker and the loopback farm, sampled for heap, RSS, threads, descriptors and consumer lag;
# exit 1 on growth beyond the stated bounds or on a false state event.
#   bench/scripts/soak.sh ci     10 minutes, 2,000 targets at 10 s, samples every 15 s, restarts every 110 s
#                                (the CI variant: modest CPU, meant to run in the background beside other tests)
#   bench/scripts/soak.sh long   60 minutes, 10,000 targets at 10 s, samples every 30 s, restarts every 5 min
# More `bench soak` flags may follow the tier (they win). Writes bench/target/soak-<tier>/{soak.csv,soak.svg,summary.md}.
# Needs bench/target/bench.jar and cli/target/healthmesh-cli.jar: mvn -q package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/../.."
tier="${1:-}"
shift || true
case "$tier" in
  ci) flags=(--targets 2000 --flapping 4 --interval 10s --duration 10m --sample-every 15s --restart-every 110s
             --warmup 60s) ;;
  long) flags=(--targets 10000 --flapping 5 --interval 10s --duration 60m --sample-every 30s --restart-every 5m
             --warmup 2m) ;;
  *) echo "usage: $0 ci|long [bench soak flags]" >&2; exit 2 ;;
esac
for jar in bench/target/bench.jar cli/target/healthmesh-cli.jar; do
  if [ ! -f "$jar" ]; then
    echo "$jar is missing: build it first (mvn -q package -DskipTests)" >&2
    exit 2
  fi
done
out="bench/target/soak-$tier"
rm -rf "$out" && mkdir -p "$out/jars"
# run from copies: a build beside the soak (CI runs `mvn verify` meanwhile) rewrites the jars in place
cp bench/target/bench.jar cli/target/healthmesh-cli.jar "$out/jars/"
cp -r cli/target/lib "$out/jars/lib"
# the broker, the registry and the farm share this JVM (G1: short pauses, the farm answers in them); the roles
# get 256 MiB each
exec java -Xmx768m -jar "$out/jars/bench.jar" soak "${flags[@]}" \
  --cli-jar "$out/jars/healthmesh-cli.jar" --out "$out" "$@"
