#!/usr/bin/env bash
# Builds the image of the previous healthmesh release, which the rolling-upgrade test (e2e RollingUpgradeIT) starts
# from before it replaces each instance with the current image. Idempotent: an image already built from that
# commit is kept (it carries the commit as the label io.healthmesh.commit).
#
# Usage: docker/build-previous.sh [--offline]
#   --offline   build on the local base image (healthmesh/base-jre:17), as docker/build-images.sh --offline does
# Environment: HEALTHMESH_PREVIOUS_IMAGE (default healthmesh:<previous version>), HEALTHMESH_BASE_IMAGE,
# MVN (default mvn), PREVIOUS_MAVEN_ARGS (default -o: the current build has already fetched what it needs).
#
# Steps: a detached git worktree of the previous commit under $HEALTHMESH_CACHE_DIR, `mvn package -pl cli -am
# -DskipTests` in it, then `docker build` of that tree's own Dockerfile. Fails, saying how to fetch it, when the
# commit is not in this clone (a shallow CI clone, for instance).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=offline/common.sh
. "$here/offline/common.sh"

# the previous release: change these three together when a release is cut (docs/operations/rolling-upgrades.md)
previous_version=0.2.0
previous_tag=v0.2.0
previous_commit=383a69b4fb99f5aa8ba04361fca7bdec483ad5da

image="${HEALTHMESH_PREVIOUS_IMAGE:-healthmesh:$previous_version}"
local_base="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
offline=false
while [ $# -gt 0 ]; do
  case "$1" in
    --offline) offline=true ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (expected: --offline)" ;;
  esac
  shift
done

require_engine
if image_exists "$image" \
    && [ "$(docker image inspect -f '{{ index .Config.Labels "io.healthmesh.commit" }}' "$image")" = "$previous_commit" ]; then
  log "$image is already built from $previous_tag ($previous_commit)"
  exit 0
fi

git -C "$root" cat-file -e "$previous_commit^{commit}" 2>/dev/null \
  || die "commit $previous_commit ($previous_tag, healthmesh $previous_version) is not in the clone at $root;" \
         "fetch it first: git fetch --unshallow, or git fetch origin tag $previous_tag"

mkdir -p "$HEALTHMESH_CACHE_DIR"
tree="$HEALTHMESH_CACHE_DIR/previous-${previous_commit:0:12}"
if [ -d "$tree" ] && [ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" = "$previous_commit" ]; then
  log "reusing the worktree $tree"
else
  # a left-over directory that is not that commit's worktree: start again
  git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"
  git -C "$root" worktree prune
  timed "git worktree $previous_tag" quietly "$HEALTHMESH_CACHE_DIR/previous-worktree.log" \
    git -C "$root" worktree add --detach "$tree" "$previous_commit"
fi

# shellcheck disable=SC2086 # PREVIOUS_MAVEN_ARGS holds several arguments
timed "maven package $previous_tag" quietly "$HEALTHMESH_CACHE_DIR/previous-maven.log" \
  "${MVN:-mvn}" -B -q -Dstyle.color=never ${PREVIOUS_MAVEN_ARGS--o} -f "$tree/pom.xml" -pl cli -am package -DskipTests

base_args=()
if [ "$offline" = true ]; then
  image_exists "$local_base" || HEALTHMESH_BASE_IMAGE="$local_base" "$here/offline/build-base-image.sh"
  base_args=(--build-arg "BASE_IMAGE=$local_base")
fi
export DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}"
timed "docker build $image" quietly "$HEALTHMESH_CACHE_DIR/previous-docker-build.log" \
  docker build "${base_args[@]}" --label "io.healthmesh.commit=$previous_commit" \
    --label "org.opencontainers.image.version=$previous_version" \
    -f "$tree/docker/Dockerfile" -t "$image" "$tree"
log "built $image from $previous_tag ($previous_commit)"
