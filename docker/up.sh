#!/usr/bin/env bash
# One command for the whole compose stack (docker/compose.yaml): builds what is missing, brings the stack up,
# waits until docker/targets.yaml is applied, and says how to watch it.
#
# Usage: docker/up.sh [--offline | --online] [--build-jar]
#   --offline    use only local images: build healthmesh/base-jre:17 and healthmesh/kafka:4.1.1 when missing
#                (docker/offline/), and the project's images on that base; no image registry is asked
#   --online     use the public images (apache/kafka, eclipse-temurin, debian), pulled by Docker
#   (neither)    offline when the local base image exists; else online when the public Kafka image is local
#                or can be pulled; else offline
#   --build-jar  rebuild the CLI jar with Maven first (done anyway when it is missing)
# Environment: KAFKA_IMAGE, HEALTHMESH_IMAGE, HEALTHMESH_TARGET_IMAGE (images), KAFKA_HOST_PORT (19092),
# REGISTRY_HOST_PORT (18081), COMPOSE_PROJECT_NAME (healthmesh).
# Stop it with: docker compose -p healthmesh -f docker/compose.yaml down -v   (or docker-compose)
# Exits non-zero, with the stack's state and the applier's log, when the targets are not applied within 240 s.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=offline/common.sh
. "$here/offline/common.sh"

public_kafka_image="apache/kafka:4.1.1"
offline_kafka_image="${HEALTHMESH_KAFKA_IMAGE:-healthmesh/kafka:4.1.1}"
local_base="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
mode=auto
build_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --offline) mode=offline ;;
    --online) mode=online ;;
    --build-jar) build_args+=(--build-jar) ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (expected: --offline, --online, --build-jar)" ;;
  esac
  shift
done

docker info >/dev/null 2>&1 \
  || die "no Docker engine answers; as root, docker/ci-setup.sh installs and starts one (and builds the offline images)"
if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null; then
  compose=(docker-compose)
else
  die "neither 'docker compose' nor 'docker-compose' is installed (Debian: apt-get install docker-compose)"
fi
compose+=(-p "${COMPOSE_PROJECT_NAME:-healthmesh}" -f "$here/compose.yaml")

if [ "$mode" = auto ]; then
  if image_exists "$local_base"; then
    # the offline images are here already: use them, ask no registry
    mode=offline
  elif image_exists "$public_kafka_image" || timeout 120 docker pull -q "$public_kafka_image" >/dev/null 2>&1; then
    mode=online
  else
    log "no image registry answers: building the offline images"
    mode=offline
  fi
fi

if [ "$mode" = offline ]; then
  "$here/offline/build-base-image.sh"
  "$here/offline/build-kafka-image.sh"
  export KAFKA_IMAGE="${KAFKA_IMAGE:-$offline_kafka_image}"
  "$here/build-images.sh" --offline "${build_args[@]}"
else
  export KAFKA_IMAGE="${KAFKA_IMAGE:-$public_kafka_image}"
  "$here/build-images.sh" "${build_args[@]}"
fi

log "starting the stack (${compose[*]} up -d) with $KAFKA_IMAGE"
(cd "$root" && "${compose[@]}" up -d)

# the targets are applied by a one-shot service once the aggregators are healthy: wait for it, bounded
deadline=$((SECONDS + 240))
until [ "$("${compose[@]}" ps -q apply-targets | xargs -r docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' 2>/dev/null)" = "exited 0" ]; do
  if [ $SECONDS -ge $deadline ]; then
    "${compose[@]}" ps >&2
    "${compose[@]}" logs --tail 20 apply-targets >&2 || true
    die "the targets were not applied within 240 s (see: ${compose[*]} logs)"
  fi
  sleep 2
done
"${compose[@]}" ps
cat >&2 <<EOF

healthmesh is up: Kafka at localhost:${KAFKA_HOST_PORT:-19092}, schema registry at http://localhost:${REGISTRY_HOST_PORT:-18081}.
Watch the state:   ./healthmesh watch --bootstrap-server localhost:${KAFKA_HOST_PORT:-19092} --schema-registry http://localhost:${REGISTRY_HOST_PORT:-18081}
Fail a backend:    ${compose[*]} stop web-1
Stop everything:   ${compose[*]} down -v
EOF
