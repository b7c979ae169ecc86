#!/usr/bin/env bash
# Builds the local Kafka image `healthmesh/kafka:<version>` without any image registry: Kafka's
# broker jars resolved from Maven (docker/kafka/pom.xml) on top of the local base image.
# The image runs a KRaft broker configured from KAFKA_* environment variables (apache/kafka style).
#
# Usage: build-kafka-image.sh [--force] [--check]
#   --force   rebuild even when the image exists
#   --check   start the built broker once and wait until it reports it started
# Environment: KAFKA_VERSION (default 4.1.1), HEALTHMESH_KAFKA_IMAGE (default healthmesh/kafka:$KAFKA_VERSION),
# HEALTHMESH_BASE_IMAGE (default healthmesh/base-jre:17, built first when missing), MVN (default mvn).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

kafka_version="${KAFKA_VERSION:-4.1.1}"
image="${HEALTHMESH_KAFKA_IMAGE:-healthmesh/kafka:$kafka_version}"
base_image="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
context="$here/../kafka"
force=false
check=false
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=true ;;
    --check) check=true ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (expected: --force, --check)" ;;
  esac
  shift
done

# Starts the image once with its defaults and waits (bounded) for the broker's "started" line.
check_image() {
  local name="healthmesh-kafka-check-$$" deadline=$((SECONDS + 90))
  docker run -d --name "$name" "$image" >/dev/null
  # shellcheck disable=SC2064 # the name is fixed now
  trap "docker rm -f '$name' >/dev/null 2>&1 || true" RETURN
  until docker logs "$name" 2>&1 | grep -q 'Kafka Server started'; do
    if [ "$(docker inspect -f '{{.State.Running}}' "$name")" != true ] || [ $SECONDS -ge $deadline ]; then
      docker logs --tail 30 "$name" >&2 || true
      die "$image did not start a broker"
    fi
    sleep 1
  done
  log "$image started a broker"
}

require_engine
if image_exists "$image" && [ "$force" = false ]; then
  log "$image exists (use --force to rebuild)"
else
  if ! image_exists "$base_image"; then
    log "$base_image is missing: building it first"
    HEALTHMESH_BASE_IMAGE="$base_image" "$here/build-base-image.sh"
  fi
  log "resolving Kafka $kafka_version and its runtime dependencies with Maven"
  rm -rf "$context/target/libs"
  mkdir -p "$HEALTHMESH_CACHE_DIR"
  timed "maven copy-dependencies" quietly "$HEALTHMESH_CACHE_DIR/kafka-maven.log" \
    "${MVN:-mvn}" -B -Dstyle.color=never -f "$context/pom.xml" -Dkafka.version="$kafka_version" package
  [ -f "$context/target/libs/kafka_2.13-$kafka_version.jar" ] || die "Maven did not produce kafka_2.13-$kafka_version.jar"
  # the legacy builder needs no buildx plugin, and the Dockerfile uses nothing newer
  timed "docker build" quietly "$HEALTHMESH_CACHE_DIR/kafka-docker-build.log" \
    env DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}" docker build --build-arg BASE_IMAGE="$base_image" -t "$image" "$context"
  log "built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{ printf "%d MB", $1 / 1000000 }'))"
fi
if [ "$check" = true ]; then
  timed "broker start check" check_image
fi
