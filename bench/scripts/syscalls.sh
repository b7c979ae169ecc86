#!/usr/bin/env bash
# Syscalls per probe of the probe engine, per transport and per syscall name: the real engine (one event loop) runs
# N probes against loopback servers of another process while strace counts the engine's process over the probe
# window only (attached after a warm-up, detached when the N probes are done); an idle window of the same length
# is counted the same way and subtracted, so the figure is what each probe costs.
# Usage: bench/scripts/syscalls.sh [N=20000] [CONCURRENCY=16] [TRANSPORTS="nio epoll io_uring"]
# Prints a markdown table per protocol and transport; writes it to bench/target/syscalls.md as well. JAR=path counts
# another build (default bench/target/bench.jar).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-20000}
CONCURRENCY=${2:-16}
TRANSPORTS=${3:-"nio epoll io_uring"}
JAR=${JAR:-bench/target/bench.jar}
OUT=bench/target/syscalls.md
WORK=$(mktemp -d)
SERVER_PID=""
SUMMARY=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

if ! command -v strace >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq strace >/dev/null
  else
    echo "strace is missing: install it (apt-get install strace) or run as root" >&2
    exit 1
  fi
fi
if [ ! -f "$JAR" ]; then
  mvn -B -q -pl bench -am package -DskipTests
fi
# shellcheck source=bench/scripts/syscall-driver.sh
. bench/scripts/syscall-driver.sh

# strace -c output -> "name calls" lines
counts() {
  awk '/^-+ / {dash++; next} dash == 1 && NF >= 5 { print $NF, $4 }' "$1"
}

# strace -c attached to every thread of process $1 (new threads followed), summary to $2; sets SPID
trace() {
  local pid=$1 out=$2 tids=()
  for t in /proc/"$pid"/task/*; do tids+=(-p "${t##*/}"); done
  strace -c -f -qq -o "$out" "${tids[@]}" >/dev/null 2>&1 &
  SPID=$!
}

start_servers "$JAR"

{
  echo "# Syscalls per probe ($(date -u +%Y-%m-%dT%H:%MZ), N=$N, concurrency $CONCURRENCY, kernel $(uname -r))"
  echo
} > "$OUT"

for proto in tcp http; do
  target=$TCP_TARGET; [ "$proto" = http ] && target=$HTTP_TARGET
  for transport in $TRANSPORTS; do
    log="$WORK/driver-$proto-$transport.out"
    if ! start_driver "$JAR" "$proto" "$target" "$N" "$CONCURRENCY" "$transport" "$log"; then
      why=$(grep -m1 -iE 'transport|exception|error' "$log.err" || true)
      echo "## $proto, $transport: not available: $why" >> "$OUT"; echo >> "$OUT"
      SUMMARY+="| $proto | $transport | not available | $why |"$'\n'
      exec 3>&-; wait "$DRIVER_PID" 2>/dev/null || true
      continue
    fi
    transport_line=$(grep -m1 '^TRANSPORT ' "$log" | cut -d' ' -f2- || true)
    # the probe window
    trace "$DRIVER_PID" "$WORK/probe.txt"; sleep 1
    start=$(date +%s%N)
    echo go >&3
    for _ in $(seq 1 1200); do grep -q '^DONE' "$log" && break; sleep 0.05; done
    end=$(date +%s%N)
    kill -INT "$SPID"; wait "$SPID" 2>/dev/null || true
    # an idle window of the same length (the engine's timers, the JVM's own threads)
    window_ms=$(( (end - start) / 1000000 ))
    trace "$DRIVER_PID" "$WORK/idle.txt"; sleep 1
    sleep "$(awk -v ms="$window_ms" 'BEGIN { printf "%.3f", ms / 1000 }')"
    kill -INT "$SPID"; wait "$SPID" 2>/dev/null || true
    echo exit >&3; exec 3>&-
    wait "$DRIVER_PID" || { echo "driver failed: $(cat "$log.err")" >&2; exit 1; }
    done_line=$(grep '^DONE' "$log")
    join -a1 -e 0 -o 0,1.2,2.2 <(counts "$WORK/probe.txt" | sort) <(counts "$WORK/idle.txt" | sort) \
      | awk -v n="$N" '{ d = ($2 - $3) / n; if (d >= 0.005 || d <= -0.005) printf "%s %.2f\n", $1, d }' \
      | sort -k2 -g -r > "$WORK/per-probe.txt"
    total=$(awk '{ t += $2 } END { printf "%.1f", t }' "$WORK/per-probe.txt")
    top=$(head -6 "$WORK/per-probe.txt" | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')
    SUMMARY+="| $proto | $transport | $total | $top |"$'\n'
    {
      echo "## $proto, $transport"
      echo
      if [ -n "$transport_line" ]; then echo "Engine: \`$transport_line\`"; echo; fi
      echo "Probe window ${window_ms} ms (driver: $done_line); load average $(cut -d' ' -f1-3 /proc/loadavg)"
      echo
      echo "| syscall | per probe |"
      echo "|---|---:|"
      awk '{ printf "| %s | %s |\n", $1, $2 }' "$WORK/per-probe.txt"
      echo "| **total** | **$total** |"
      echo
    } >> "$OUT"
  done
done
{
  echo "## Summary"
  echo
  echo "| probe | transport | syscalls per probe | largest |"
  echo "|---|---|---:|---|"
  printf '%s' "$SUMMARY"
} >> "$OUT"
cat "$OUT"
