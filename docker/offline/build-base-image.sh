#!/usr/bin/env bash
# Builds the local Java 17 runtime image `healthmesh/base-jre:17` without any image registry:
# debootstrap (Debian bookworm, variant minbase) + openjdk-17-jre-headless + ca-certificates,
# imported with `docker import`. The Debian mirror comes from this machine's apt sources.
#
# Usage: build-base-image.sh [--force] [--image NAME]
#   --force   rebuild the root filesystem and re-import even when the image exists
#   --image   image name (default healthmesh/base-jre:17, or $HEALTHMESH_BASE_IMAGE)
# Environment: HEALTHMESH_CACHE_DIR (default /var/cache/healthmesh) keeps the rootfs tarball and
# the downloaded .deb files, so a re-import or a forced rebuild need not download again;
# HEALTHMESH_DEBIAN_MIRROR overrides the mirror read from the apt sources. Needs root.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

image="${HEALTHMESH_BASE_IMAGE:-healthmesh/base-jre:17}"
force=false
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=true ;;
    --image) image=${2:?--image needs a name}; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (expected: --force, --image NAME)" ;;
  esac
  shift
done

# socat serves the example targets of the compose stack (HTTP, TCP, UDP echo) from this same base.
packages="openjdk-17-jre-headless ca-certificates socat"
require_engine
if image_exists "$image" && [ "$force" = false ]; then
  log "$image exists (use --force to rebuild)"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || die "debootstrap needs root"
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install -y debootstrap)"

arch=$(dpkg --print-architecture)
# the cache key changes when the package list or the architecture does
key=$(printf '%s %s %s' "$DEBIAN_SUITE" "$arch" "$packages" | sha256sum | cut -c1-12)
tarball="$HEALTHMESH_CACHE_DIR/base-jre-17-$DEBIAN_SUITE-$arch-$key.tar"
debs="$HEALTHMESH_CACHE_DIR/debs-$DEBIAN_SUITE-$arch"
mkdir -p "$HEALTHMESH_CACHE_DIR" "$debs"

rootfs=""
# undo the chroot's mounts and remove the tree whatever happens
remove_rootfs() {
  [ -n "$rootfs" ] || return 0
  umount -l "$rootfs/var/cache/apt/archives" 2>/dev/null || true
  umount -l "$rootfs/proc" 2>/dev/null || true
  rm -rf "$rootfs"
}
trap remove_rootfs EXIT

build_rootfs() {
  local mirror
  mirror=$(debian_mirror)
  rootfs=$(mktemp -d "$HEALTHMESH_CACHE_DIR/rootfs.XXXXXX")
  log "debootstrap $DEBIAN_SUITE ($arch, minbase) from the machine's apt source"
  timed "debootstrap" quietly "$HEALTHMESH_CACHE_DIR/debootstrap.log" \
    debootstrap --variant=minbase --arch="$arch" --cache-dir="$debs" "$DEBIAN_SUITE" "$rootfs" "$mirror"

  debian_suite_sources >"$rootfs/etc/apt/sources.list"
  cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
  # no service may start inside the chroot
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
  chmod 755 "$rootfs/usr/sbin/policy-rc.d"
  # ca-certificates-java runs java in its postinst, and java wants /proc
  mount -t proc proc "$rootfs/proc"
  mount --bind "$debs" "$rootfs/var/cache/apt/archives"
  log "installing $packages"
  timed "apt-get install" quietly "$HEALTHMESH_CACHE_DIR/apt-install.log" \
    chroot "$rootfs" /usr/bin/env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
    sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $packages"
  # the same JAVA_HOME as the public eclipse-temurin images, so one Dockerfile fits both
  mkdir -p "$rootfs/opt/java"
  ln -s "/usr/lib/jvm/java-17-openjdk-$arch" "$rootfs/opt/java/openjdk"
  chroot "$rootfs" /opt/java/openjdk/bin/java -version >/dev/null 2>&1 || die "the image's java does not run"
  umount -l "$rootfs/var/cache/apt/archives"
  umount -l "$rootfs/proc"

  # slim down: package lists, man pages, locales, docs other than licences
  rm -f "$rootfs/usr/sbin/policy-rc.d" "$rootfs/etc/resolv.conf"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/* \
    "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/tmp/*
  find "$rootfs/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name 'C.*' -exec rm -rf {} + 2>/dev/null || true
  find "$rootfs/usr/share/doc" -type f ! -name copyright -delete 2>/dev/null || true

  timed "tar rootfs" tar --numeric-owner --xattrs -C "$rootfs" -cf "$tarball.partial" .
  mv "$tarball.partial" "$tarball"
  remove_rootfs
  rootfs=""
}

if [ "$force" = true ] || [ ! -s "$tarball" ]; then
  timed "root filesystem" build_rootfs
else
  log "reusing cached root filesystem $tarball"
fi

timed "docker import" docker import \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["bash"]' \
  --message "debootstrap $DEBIAN_SUITE minbase + $packages" \
  "$tarball" "$image" >/dev/null
version=$(docker run --rm "$image" java -version 2>&1) || die "java does not run in $image: $version"
log "  ${version%%$'\n'*}"
log "built $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{ printf "%d MB", $1 / 1000000 }'))"
