# Sourced by syscalls.sh and engine-cpu.sh: the loopback targets and the probe driver of `bench syscalls`, with the
# warm-up handshake on a fifo. The caller sets WORK (a scratch directory) and kills SERVER_PID on exit.

# start_servers JAR: one TCP and one HTTP target of the loopback farm, a gRPC health service and a DNS server on UDP in
# their own JVM; sets SERVER_PID, TCP_TARGET, HTTP_TARGET, GRPC_TARGET and DNS_TARGET (ADDRESS:PORT[/PATH or /NAME])
start_servers() {
  java -Xmx256m -XX:+UseSerialGC -jar "$1" syscalls serve \
    > "$WORK/serve.out" 2>"$WORK/serve.err" &
  SERVER_PID=$!
  for _ in $(seq 1 300); do grep -q '^TARGETS' "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
  read -r _ TCP_TARGET HTTP_TARGET GRPC_TARGET DNS_TARGET < <(grep '^TARGETS' "$WORK/serve.out") \
    || { echo "the loopback servers did not start: $(tail -3 "$WORK/serve.err")" >&2; return 1; }
}

# start_driver JAR PROTO TARGET N CONCURRENCY TRANSPORT LOG: the probe driver, warmed up and waiting for "go" on fd 3
# (the caller writes "go", then "exit", to fd 3 and closes it); sets DRIVER_PID; returns 1 when it never got READY
start_driver() {
  local fifo="$WORK/ctl"
  rm -f "$fifo"; mkfifo "$fifo"
  java -Xmx256m -XX:+UseSerialGC -jar "$1" syscalls probe "$2" "$3" "$4" "$5" "$6" \
    < "$fifo" > "$7" 2>"$7.err" &
  DRIVER_PID=$!
  exec 3>"$fifo"
  for _ in $(seq 1 1200); do
    grep -q '^READY' "$7" 2>/dev/null && return 0
    kill -0 "$DRIVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  grep -q '^READY' "$7"
}
