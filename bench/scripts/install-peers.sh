#!/usr/bin/env bash
# Installs the peers the benchmark compares healthmesh with, from Debian's packages: HAProxy and Prometheus
# blackbox_exporter. Idempotent (does nothing when both are there); needs root (apt-get). The benchmark runs the
# binaries itself with generated configs on loopback; the packages' own services are not used.
set -euo pipefail

need=()
[ -x /usr/sbin/haproxy ] || need+=(haproxy)
[ -x /usr/bin/prometheus-blackbox-exporter ] || need+=(prometheus-blackbox-exporter)
if [ ${#need[@]} -eq 0 ]; then
  echo "peers already installed: $(/usr/sbin/haproxy -v | head -1); $(/usr/bin/prometheus-blackbox-exporter --version 2>&1 | head -1)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-peers.sh: root is needed to install ${need[*]} (apt-get)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d keeps the packages' services from starting where an init system would start them
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && created_policy=1
fi
apt-get install -y -qq --no-install-recommends "${need[@]}"
[ "$created_policy" -eq 1 ] && rm -f "$policy"
echo "installed: ${need[*]}"
