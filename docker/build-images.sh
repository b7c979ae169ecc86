#!/usr/bin/env bash
# Builds the project's images: healthmesh (every role) and the example targets. The healthmesh image is also
# tagged with the project version it reports (`healthmesh version`): HEALTHMESH_IMAGE=healthmesh:dev gives
# healthmesh:dev and healthmesh:<version>, e.g. healthmesh:0.2.0.
#
# Usage: docker/build-images.sh [--offline] [--build-jar] [--monitoring]
#   --offline     build on the local base image (healthmesh/base-jre:17, built first when missing) instead of
#                 the public base images; needs no image registry
#   --build-jar   (re)build cli/target/healthmesh-cli.jar and cli/target/lib with Maven first
#                 (done anyway when the jar or lib/ is missing)
#   --monitoring  also build the Prometheus + Alertmanager image (Debian packages) of compose's "monitoring" profile
# Environment: HEALTHMESH_IMAGE (default healthmesh:dev), HEALTHMESH_TARGET_IMAGE (default healthmesh/targets:dev),
# HEALTHMESH_BASE_IMAGE (the local base, default healthmesh/base-jre:17), MVN (default mvn),
# MONITORING_IMAGE (default healthmesh/prometheus:dev).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=offline/common.sh
. "$here/offline/common.sh"

image="${HEALTHMESH_IMAGE:-healthmesh:dev}"
target_image="${HEALTHMESH_TARGET_IMAGE:-healthmesh/targets:dev}"
local_base="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
offline=false
build_jar=false
monitoring=false
while [ $# -gt 0 ]; do
  case "$1" in
    --offline) offline=true ;;
    --build-jar) build_jar=true ;;
    --monitoring) monitoring=true ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (expected: --offline, --build-jar, --monitoring)" ;;
  esac
  shift
done

require_engine
jar="$root/cli/target/healthmesh-cli.jar"
if [ "$build_jar" = true ] || [ ! -f "$jar" ] || [ ! -d "$root/cli/target/lib" ]; then
  mkdir -p "$HEALTHMESH_CACHE_DIR"
  log "building the CLI jar (mvn -pl cli -am package -DskipTests)"
  # the image copies cli/target/lib whole: drop the jars an earlier version of the build left there
  rm -rf "$root/cli/target/lib"
  timed "maven package cli" quietly "$HEALTHMESH_CACHE_DIR/cli-maven.log" \
    "${MVN:-mvn}" -B -Dstyle.color=never -f "$root/pom.xml" -pl cli -am package -DskipTests
fi

base_args=()
if [ "$offline" = true ]; then
  image_exists "$local_base" || HEALTHMESH_BASE_IMAGE="$local_base" "$here/offline/build-base-image.sh"
  base_args=(--build-arg "BASE_IMAGE=$local_base")
fi

# the legacy builder needs no buildx plugin; the Dockerfiles use nothing newer
export DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}"
mkdir -p "$HEALTHMESH_CACHE_DIR"
timed "docker build $image" quietly "$HEALTHMESH_CACHE_DIR/healthmesh-docker-build.log" \
  docker build "${base_args[@]}" -f "$here/Dockerfile" -t "$image" "$root"
timed "docker build $target_image" quietly "$HEALTHMESH_CACHE_DIR/targets-docker-build.log" \
  docker build "${base_args[@]}" -t "$target_image" "$here/targets"
# the version tag, from the image itself: what `healthmesh version` says is what the tag says
version=$(docker run --rm "$image" version | awk '$1 == "healthmesh" { print $2 }')
[ -n "$version" ] || die "$image did not report its version (docker run --rm $image version)"
version_tag="${image%:*}:$version"
[ "$version_tag" = "$image" ] || docker tag "$image" "$version_tag"
log "built $image ($version_tag) and $target_image"
if [ "$monitoring" = true ]; then
  monitoring_image="${MONITORING_IMAGE:-healthmesh/prometheus:dev}"
  timed "docker build $monitoring_image" quietly "$HEALTHMESH_CACHE_DIR/monitoring-docker-build.log" \
    docker build "${base_args[@]}" -t "$monitoring_image" "$here/prometheus"
  log "built $monitoring_image"
fi
