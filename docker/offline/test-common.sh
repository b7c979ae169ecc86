#!/usr/bin/env bash
# Checks common.sh's reading of apt sources on made-up configurations (both formats, options, comments,
# disabled stanzas, several URIs and suites). Prints the count of checks; exits non-zero on a failure.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

passed=0
failed=0
check() {
  local what=$1 expected=$2 actual=$3
  if [ "$expected" = "$actual" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAIL %s\n  expected: %s\n  actual:   %s\n' "$what" "$expected" "$actual" >&2
  fi
}

etc=$(mktemp -d)
trap 'rm -rf "$etc"' EXIT
mkdir -p "$etc/sources.list.d"
export HEALTHMESH_APT_ETC="$etc"

# one-line format, with options, a comment, a deb-src line and a trailing comment
cat >"$etc/sources.list" <<'SRC'
# deb http://commented.invalid/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://one.invalid/debian bookworm main contrib
deb-src http://one.invalid/debian bookworm main
deb http://one.invalid/debian-security bookworm-security main # security
SRC
check "one-line sources" \
  "http://one.invalid/debian bookworm main,contrib|http://one.invalid/debian-security bookworm-security main" \
  "$(apt_deb_sources | paste -sd '|')"
check "mirror from the one-line file" "http://one.invalid/debian" "$(debian_mirror)"

# deb822 format only: two URIs x two suites, a disabled stanza, a deb-src-only stanza
rm "$etc/sources.list"
cat >"$etc/sources.list.d/debian.sources" <<'SRC'
Types: deb-src
URIs: http://src-only.invalid/debian
Suites: bookworm
Components: main

Types: deb
Enabled: no
URIs: http://disabled.invalid/debian
Suites: bookworm
Components: main

# comment between stanzas
Types: deb deb-src
URIs: http://a.invalid/debian http://b.invalid/debian
Suites: bookworm bookworm-updates
Components: main non-free-firmware
SRC
check "deb822 sources" \
  "http://a.invalid/debian bookworm main,non-free-firmware|http://a.invalid/debian bookworm-updates main,non-free-firmware|http://b.invalid/debian bookworm main,non-free-firmware|http://b.invalid/debian bookworm-updates main,non-free-firmware" \
  "$(apt_deb_sources | paste -sd '|')"
check "mirror from the deb822 file" "http://a.invalid/debian" "$(debian_mirror)"
check "suite sources written into the image" \
  "deb http://a.invalid/debian bookworm main non-free-firmware|deb http://a.invalid/debian bookworm-updates main non-free-firmware|deb http://b.invalid/debian bookworm main non-free-firmware|deb http://b.invalid/debian bookworm-updates main non-free-firmware" \
  "$(debian_suite_sources | paste -sd '|')"

# an explicit mirror wins over the files
check "HEALTHMESH_DEBIAN_MIRROR" "http://explicit.invalid/debian" "$(HEALTHMESH_DEBIAN_MIRROR=http://explicit.invalid/debian debian_mirror)"

# no source for the suite: a clear error, non-zero
rm "$etc/sources.list.d/debian.sources"
echo "deb http://other.invalid/ubuntu noble main" >"$etc/sources.list"
message=$( (debian_mirror) 2>&1 >/dev/null); status=$?
check "no bookworm source fails" "1" "$status"
check "no bookworm source says what to set" "yes" "$([[ $message == *HEALTHMESH_DEBIAN_MIRROR* ]] && echo yes || echo no)"

echo "apt sources parsing: $passed checks passed, $failed failed"
[ "$failed" -eq 0 ]
