#!/usr/bin/env bash
# Starts a KRaft Kafka broker configured from the environment, in the spirit of the apache/kafka image:
#   KAFKA_FOO_BAR=v  ->  foo.bar=v   ("__" stands for "_", "___" for "-")
# When no KAFKA_* setting is given, a single combined broker+controller listens on :9092 (clients)
# and :9093 (controller), advertised as localhost:9092.
# CLUSTER_ID names the cluster when the storage is formatted the first time (random when unset).
# JVM: KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_OPTS; KAFKA_LOG4J_ROOT_LOGLEVEL sets the log level.
# Given arguments, it runs them instead (as the apache/kafka image runs its command): Testcontainers' KafkaContainer
# starts a script of its own that ends in /etc/kafka/docker/run, which is this script too.
set -euo pipefail
if [ $# -gt 0 ]; then
  exec "$@"
fi

KAFKA_HOME=${KAFKA_HOME:-/opt/kafka}
config="$KAFKA_HOME/config/server.properties"
classpath="$KAFKA_HOME/libs/*"

# variables that configure the JVM or this script, never the broker
not_broker_settings=" KAFKA_HOME KAFKA_HEAP_OPTS KAFKA_JVM_PERFORMANCE_OPTS KAFKA_OPTS KAFKA_GC_LOG_OPTS KAFKA_LOG4J_OPTS \
KAFKA_JMX_OPTS KAFKA_DEBUG KAFKA_LOG4J_ROOT_LOGLEVEL KAFKA_VERSION KAFKA_CONFIG_DIR "

# KAFKA_LOG_DIRS -> log.dirs, KAFKA_A__B -> a_b, KAFKA_A___B -> a-b
property_name() {
  local name=${1#KAFKA_}
  name=${name//___/-}
  name=${name//__/@}
  name=${name//_/.}
  name=${name//@/_}
  printf '%s' "${name,,}"
}

write_config_from_env() {
  local var value count=0
  : >"$config.tmp"
  for var in $(compgen -e | LC_ALL=C sort); do
    case "$var" in KAFKA_*) ;; *) continue ;; esac
    case "$not_broker_settings" in *" $var "*) continue ;; esac
    value=${!var}
    # a backslash would start an escape in a properties file
    printf '%s=%s\n' "$(property_name "$var")" "${value//\\/\\\\}" >>"$config.tmp"
    count=$((count + 1))
  done
  if [ "$count" -eq 0 ]; then
    cat >"$config.tmp" <<'DEFAULTS'
node.id=1
process.roles=broker,controller
listeners=PLAINTEXT://:9092,CONTROLLER://:9093
advertised.listeners=PLAINTEXT://localhost:9092
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.quorum.voters=1@localhost:9093
inter.broker.listener.name=PLAINTEXT
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
DEFAULTS
  fi
  grep -q '^log\.dirs=' "$config.tmp" || echo 'log.dirs=/var/lib/kafka/data' >>"$config.tmp"
  mv "$config.tmp" "$config"
}

setting() { sed -n "s/^$1=//p" "$config" | tail -1; }

format_storage() {
  local cluster_id=${CLUSTER_ID:-} mode=() dir
  # a restarted container keeps its storage (and its cluster id): format only once
  for dir in $(setting 'log\.dirs' | tr ',' ' ') $(setting 'metadata\.log\.dir'); do
    [ -f "$dir/meta.properties" ] && return 0
  done
  if [ -z "$cluster_id" ]; then
    cluster_id=$(java -cp "$classpath" kafka.tools.StorageTool random-uuid)
  fi
  # a static quorum (controller.quorum.voters) formats plainly; a lone dynamic controller bootstraps itself
  if [ -z "$(setting 'controller\.quorum\.voters')" ] && [[ "$(setting 'process\.roles')" == *controller* ]]; then
    mode=(--standalone)
  fi
  java -XX:TieredStopAtLevel=1 -Xshare:auto -Dlog4j2.configurationFile="$KAFKA_HOME/config/log4j2.properties" \
    -cp "$classpath" kafka.tools.StorageTool format --cluster-id "$cluster_id" --config "$config" \
    --ignore-formatted "${mode[@]}"
}

write_config_from_env
format_storage

# shellcheck disable=SC2086 # the *_OPTS variables hold several JVM options each
exec java ${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m} \
  ${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true} \
  -Dlog4j2.configurationFile="$KAFKA_HOME/config/log4j2.properties" ${KAFKA_OPTS:-} \
  -cp "$classpath" kafka.Kafka "$config"
