#!/usr/bin/env bash
# The tests that reach src/check-server/candidates/local-redis.ts start a real redis-server (Debian package): install it
# when missing, or say in one line why it cannot be; when apt-get cannot get it, apt's own line saying
# why is in the message.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
fail() {
  echo "ensure-redis: redis-server is missing and $1" >&2
  exit 1
}
[ "${EUID:-$(id -u)}" = 0 ] || fail "only root can install it: run 'apt-get install -y redis-server' as root, then npm test again"
command -v apt-get >/dev/null 2>&1 || fail "there is no apt-get here to install it: install redis-server from your system's packages, then npm test again"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "ensure-redis: installing redis-server (apt-get)" >&2
# A failed update is not the end: the package lists already here may hold redis-server.
apt-get update -qq >"$log" 2>&1 || true
if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >>"$log" 2>&1 && command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
unreachable=$(grep -m 1 -E 'Could not connect|Could not resolve|Temporary failure resolving|Failed to fetch|Connection failed|Network is unreachable|timed out' "$log" || true)
[ -z "$unreachable" ] || fail "apt-get could not reach its source ($unreachable)"
fail "apt-get install redis-server failed ($(grep -m 1 '^E:' "$log" || tail -n 1 "$log"))"
