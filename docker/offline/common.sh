# Shared helpers for the offline image scripts (sourced, not executed).
#
# Nothing here names a package mirror: the Debian mirror is read at run time from
# the machine's own apt sources (one-line `.list` files and deb822 `.sources` files),
# or taken from HEALTHMESH_DEBIAN_MIRROR when the caller sets it.

HEALTHMESH_CACHE_DIR="${HEALTHMESH_CACHE_DIR:-/var/cache/healthmesh}"
DEBIAN_SUITE="${DEBIAN_SUITE:-bookworm}"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Runs a command and logs how long it took (the offline images are CI's long pole).
timed() {
  local label=$1; shift
  local started; started=$(date +%s.%N)
  "$@"
  local rc=$?
  log "$label took $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
  return $rc
}

# Runs a command with its output in a log file; on failure shows the log's tail and stops.
quietly() {
  local logfile=$1; shift
  "$@" >"$logfile" 2>&1 || { tail -20 "$logfile" >&2; die "$1 failed, see $logfile"; }
}

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

require_engine() {
  docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd, or run docker/ci-setup.sh as root)"
}

# Prints "URI SUITE COMPONENTS" for every enabled `deb` source of the machine, one per line
# (HEALTHMESH_APT_ETC points at another apt configuration folder, for checking this parser).
apt_deb_sources() {
  local f etc="${HEALTHMESH_APT_ETC:-/etc/apt}"
  for f in "$etc/sources.list" "$etc"/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # one-line format: deb [options] uri suite component...
    sed -e 's/#.*//' "$f" | awk '
      $1 == "deb" {
        i = 2
        if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        uri = $i; suite = $(i + 1); comps = ""
        for (j = i + 2; j <= NF; j++) comps = comps (comps == "" ? "" : ",") $j
        if (uri != "" && suite != "") print uri, suite, (comps == "" ? "main" : comps)
      }'
  done
  for f in "$etc"/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 format: stanzas separated by blank lines; fields may list several values
    awk '
      function flush(   n, u, s, k, l, uris, suites) {
        if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled != "no" && uri_list != "" && suite_list != "") {
          n = split(uri_list, uris, /[ \t]+/); m = split(suite_list, suites, /[ \t]+/)
          for (k = 1; k <= n; k++) for (l = 1; l <= m; l++)
            if (uris[k] != "" && suites[l] != "") print uris[k], suites[l], (comps == "" ? "main" : comps)
        }
        types = ""; uri_list = ""; suite_list = ""; comps = ""; enabled = ""
      }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      {
        key = tolower($1); sub(/:$/, "", key)
        val = $0; sub(/^[^:]*:[ \t]*/, "", val)
        if (key == "types") types = val
        else if (key == "uris") uri_list = val
        else if (key == "suites") suite_list = val
        else if (key == "components") { comps = val; gsub(/[ \t]+/, ",", comps) }
        else if (key == "enabled") enabled = tolower(val)
      }
      END { flush() }' "$f"
  done
}

# The mirror debootstrap uses: HEALTHMESH_DEBIAN_MIRROR, else the machine's source for the suite itself.
debian_mirror() {
  if [ -n "${HEALTHMESH_DEBIAN_MIRROR:-}" ]; then
    echo "$HEALTHMESH_DEBIAN_MIRROR"
    return
  fi
  local mirror
  mirror=$(apt_deb_sources | awk -v s="$DEBIAN_SUITE" '$2 == s { print $1; exit }')
  [ -n "$mirror" ] || die "no apt source for suite '$DEBIAN_SUITE' in /etc/apt/sources.list{,.d/*.list,.d/*.sources}; set HEALTHMESH_DEBIAN_MIRROR"
  echo "$mirror"
}

# The machine's sources for the suite and its -updates/-security companions, as one-line `deb` entries.
debian_suite_sources() {
  if [ -n "${HEALTHMESH_DEBIAN_MIRROR:-}" ]; then
    echo "deb ${HEALTHMESH_DEBIAN_MIRROR} ${DEBIAN_SUITE} main"
    return
  fi
  apt_deb_sources | awk -v s="$DEBIAN_SUITE" '
    $2 == s || $2 == s "-updates" || $2 == s "-security" || $2 == s "/updates" {
      c = $3; gsub(",", " ", c); print "deb " $1 " " $2 " " c
    }'
}
