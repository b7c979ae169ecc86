#!/usr/bin/env bash
# Prepares this machine for the container tests (run as root by .ci/run; idempotent, safe to re-run):
#   1. a Docker engine: installs docker.io (+ docker-compose, debootstrap) when none answers, starts dockerd
#      in the background and waits for it;
#   2. the offline images, which need no image registry: healthmesh/base-jre:17 (debootstrap) and
#      healthmesh/kafka:4.1.1 (Kafka's Maven jars);
#   3. the project's images on that base: healthmesh:dev and healthmesh/targets:dev (builds the CLI jar first
#      when cli/target/healthmesh-cli.jar is missing; --build-jar rebuilds it anyway);
#   4. docker/.ci-env: the environment the container tests and Testcontainers need (`. docker/.ci-env`).
# --engine-and-base does steps 1-2 only (they need no build of this project), so that CI can run them in the
# background while the Maven tiers run; a later run without it finds them done and goes on with steps 3-4.
# Each step prints how long it took. Exits non-zero, with the reason, when any step fails.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=offline/common.sh
. "$here/offline/common.sh"

build_args=()
engine_and_base_only=false
for arg in "$@"; do
  case "$arg" in
    --build-jar) build_args+=(--build-jar) ;;
    --engine-and-base) engine_and_base_only=true ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) die "unknown argument: $arg (expected: --build-jar, --engine-and-base)" ;;
  esac
done

DOCKERD_LOG="${DOCKERD_LOG:-/var/log/dockerd.log}"
base_image="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
kafka_image="${HEALTHMESH_KAFKA_IMAGE:-healthmesh/kafka:${KAFKA_VERSION:-4.1.1}}"
healthmesh_image="${HEALTHMESH_IMAGE:-healthmesh:dev}"
target_image="${HEALTHMESH_TARGET_IMAGE:-healthmesh/targets:dev}"

compose_available() { docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null; }

install_packages() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  compose_available || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || die "installing ${missing[*]} needs root"
  log "installing ${missing[*]}"
  quietly /tmp/healthmesh-apt.log apt-get update -q
  quietly /tmp/healthmesh-apt.log env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

wait_for_engine() {
  local deadline=$((SECONDS + ${1:-60}))
  until docker info >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.5
  done
}

start_engine() {
  docker info >/dev/null 2>&1 && return 0
  [ "$(id -u)" -eq 0 ] || die "starting dockerd needs root"
  if [ -S /var/run/docker.sock ] && pgrep -x dockerd >/dev/null; then
    log "dockerd is running but does not answer yet: waiting"
  else
    log "starting dockerd (log: $DOCKERD_LOG)"
    # its own session, so that it outlives this script and keeps serving the tests that follow
    setsid dockerd >"$DOCKERD_LOG" 2>&1 </dev/null &
  fi
  wait_for_engine 60 || { tail -20 "$DOCKERD_LOG" >&2; die "dockerd did not answer within 60 s"; }
  log "Docker engine $(docker info -f '{{.ServerVersion}}' 2>/dev/null) answers"
}

write_ci_env() {
  cat >"$here/.ci-env" <<EOF
# Written by docker/ci-setup.sh: the environment of the container tests (source it: . docker/.ci-env).
# No image can be pulled here, so Testcontainers must not pull its helper images:
export TESTCONTAINERS_RYUK_DISABLED=true
export TESTCONTAINERS_CHECKS_DISABLE=true
export TESTCONTAINERS_TINYIMAGE_CONTAINER_IMAGE=$base_image
# the images the compose stack and the container tests run
export HEALTHMESH_IMAGE=$healthmesh_image
export HEALTHMESH_TARGET_IMAGE=$target_image
export KAFKA_IMAGE=$kafka_image
EOF
  log "wrote $here/.ci-env"
}

started=$SECONDS
# the mirror the base image is built from comes from this parser: check it first (a fraction of a second)
"$here/offline/test-common.sh"
timed "packages" install_packages
timed "docker engine" start_engine
timed "base image" "$here/offline/build-base-image.sh"
timed "kafka image" "$here/offline/build-kafka-image.sh"
if [ "$engine_and_base_only" = true ]; then
  log "engine and base images ready in $((SECONDS - started)) s"
  exit 0
fi
timed "healthmesh images" env HEALTHMESH_IMAGE="$healthmesh_image" HEALTHMESH_TARGET_IMAGE="$target_image" \
  HEALTHMESH_BASE_IMAGE="$base_image" "$here/build-images.sh" --offline "${build_args[@]}"
write_ci_env
log "container test setup done in $((SECONDS - started)) s"
