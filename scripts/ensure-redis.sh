#!/usr/bin/env bash
# The tests start a real redis-server (Debian package): install it when missing, or say how in one line.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
if [ "${EUID:-$(id -u)}" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  command -v redis-server >/dev/null 2>&1 && exit 0
fi
echo "redis-server is missing: run 'apt-get install -y redis-server' as root, then npm test again" >&2
exit 1
