#!/usr/bin/env bash
# CPU per probe of the probe engine alone (no scheduler, no Kafka), read from /proc: the same loopback servers and
# driver as syscalls.sh (`bench syscalls`), the driver's user and system CPU over N probes after its warm-up.
# Also counts the TCP segments the machine sent per probe (both ends of loopback, so a quiet machine reads true); for
# -p dns the UDP datagrams instead (query and answer: 2 per probe on a quiet machine).
# Runs every jar given once per round, interleaved, so that two builds are compared on the same machine at the same
# time (on a shared or noisy machine only such interleaved figures compare).
#
#   bash bench/scripts/engine-cpu.sh [-p tcp|http|grpc|dns] [-t epoll|nio|io_uring|auto] [-n N] [-r ROUNDS] [JAR ...]
#
# JAR defaults to bench/target/bench.jar. Prints one line per run and the median of each jar.
set -euo pipefail
cd "$(dirname "$0")/../.."

PROTO=tcp TRANSPORT=epoll N=100000 ROUNDS=3
while getopts "p:t:n:r:h" opt; do
  case $opt in
    p) PROTO=$OPTARG ;;
    t) TRANSPORT=$OPTARG ;;
    n) N=$OPTARG ;;
    r) ROUNDS=$OPTARG ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
case $PROTO in tcp | http | grpc | dns) ;; *) echo "-p: tcp, http, grpc or dns, not $PROTO" >&2; exit 2 ;; esac
[[ $N =~ ^[0-9]+$ && $N -ge 1000 && $N -le 10000000 ]] || { echo "-n: 1000..10000000 probes, not $N" >&2; exit 2; }
[[ $ROUNDS =~ ^[0-9]+$ && $ROUNDS -ge 1 && $ROUNDS -le 50 ]] || { echo "-r: 1..50 rounds, not $ROUNDS" >&2; exit 2; }
JARS=("$@")
if [ ${#JARS[@]} -eq 0 ]; then
  JARS=(bench/target/bench.jar)
  [ -f "${JARS[0]}" ] || mvn -B -q -pl bench -am package -DskipTests
fi
for jar in "${JARS[@]}"; do [ -f "$jar" ] || { echo "no such jar: $jar" >&2; exit 2; }; done

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# shellcheck source=bench/scripts/syscall-driver.sh
. bench/scripts/syscall-driver.sh
start_servers "${JARS[0]}"
TARGET=$TCP_TARGET; [ "$PROTO" = http ] && TARGET=$HTTP_TARGET; [ "$PROTO" = grpc ] && TARGET=$GRPC_TARGET
[ "$PROTO" = dns ] && TARGET=$DNS_TARGET
PACKETS=TCP; [ "$PROTO" = dns ] && PACKETS=UDP
TICK=$(getconf CLK_TCK)

# one run: prints "user sys" in µs per probe
run() {
  local jar=$1 log="$WORK/driver.out" pid u0 s0 u1 s1
  start_driver "$jar" "$PROTO" "$TARGET" "$N" 16 "$TRANSPORT" "$log" \
    || { echo "driver did not start: $(tail -3 "$log.err")" >&2; exit 1; }
  pid=$DRIVER_PID
  sleep 1
  read -r u0 s0 < <(awk '{ print $14, $15 }' /proc/$pid/stat)
  g0=$(out_segments)
  echo go >&3
  for _ in $(seq 1 30000); do grep -q '^DONE' "$log" && break; kill -0 $pid 2>/dev/null || break; sleep 0.02; done
  read -r u1 s1 < <(awk '{ print $14, $15 }' /proc/$pid/stat)
  g1=$(out_segments)
  echo exit >&3; exec 3>&-
  wait $pid || { echo "driver failed: $(tail -3 "$log.err")" >&2; exit 1; }
  grep -q "^DONE .*{SUCCESS=$N}" "$log" || { echo "not every probe succeeded: $(grep '^DONE' "$log")" >&2; exit 1; }
  awk -v u=$((u1 - u0)) -v s=$((s1 - s0)) -v g=$((g1 - g0)) -v t="$TICK" -v n="$N" \
    'BEGIN { printf "%.1f %.1f %.2f\n", u / t * 1e6 / n, s / t * 1e6 / n, g / n }'
}

# TCP segments (or for DNS UDP datagrams) this machine has sent (every socket, both ends of loopback): /proc/net/snmp's
# Tcp OutSegs or Udp OutDatagrams
out_segments() {
  local row=Tcp: col=OutSegs
  [ "$PACKETS" = UDP ] && row=Udp: col=OutDatagrams
  awk -v r="$row" -v k="$col" \
    '$1 == r { if (!h) { for (i = 1; i <= NF; i++) if ($i == k) c = i; h = 1 } else print $c }' /proc/net/snmp
}

echo "engine CPU per $PROTO probe, transport $TRANSPORT, $N probes per run, $ROUNDS rounds; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$ROUNDS"); do
  for i in "${!JARS[@]}"; do
    read -r user sys segs < <(run "${JARS[$i]}")
    echo "$i $user $sys" >> "$WORK/runs"
    printf 'round %d  %-40s user %6.1f  sys %6.1f  total %6.1f µs/probe  %5.2f %s/probe\n' "$r" \
      "${JARS[$i]}" "$user" "$sys" "$(awk -v a="$user" -v b="$sys" 'BEGIN { print a + b }')" "$segs" \
      "$([ "$PACKETS" = UDP ] && echo 'UDP datagrams' || echo 'TCP segments')"
  done
done
for i in "${!JARS[@]}"; do
  awk -v j="$i" '$1 == j { print $2 + $3, $2, $3 }' "$WORK/runs" | sort -g \
    | awk -v jar="${JARS[$i]}" '{ t[NR] = $1; u[NR] = $2; s[NR] = $3 } END {
        m = int((NR + 1) / 2); printf "median %-40s total %6.1f µs/probe (user %.1f, sys %.1f; %d runs)\n", jar, t[m], u[m], s[m], NR }'
done
