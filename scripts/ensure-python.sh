#!/usr/bin/env bash
# test/candidates/python.test.ts checks a real server on the official `mcp` Python SDK
# (examples/python/): make the virtual environment .venv-python/ from examples/python/requirements.txt
# when it is missing or out of date, or say in one line why it cannot. Packages come from wherever
# pip's own configuration says (pip.conf, PIP_INDEX_URL, ...); when pip cannot get them, its own
# line saying why is in the message.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-python
requirements=examples/python/requirements.txt
stamp="$venv/requirements.txt"
fail() {
  echo "ensure-python: the Python candidate's environment $venv/ could not be made: $1" >&2
  exit 1
}
# Up to date: the same pinned requirements installed, and the SDK importable.
if cmp -s "$requirements" "$stamp" && "$venv/bin/python" -c 'import importlib.util as u, sys; sys.exit(0 if u.find_spec("mcp") and u.find_spec("uvicorn") else 1)' >/dev/null 2>&1; then
  exit 0
fi
python=$(command -v python3 || true)
[ -n "$python" ] || fail "no python3 on PATH: install python3 (3.10 or later, with venv and pip), then npm test again"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || fail "$("$python" --version 2>&1) is older than 3.10: install python3 3.10 or later, then npm test again"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rm -rf "$venv"
"$python" -m venv "$venv" >"$log" 2>&1 || fail "python3 -m venv failed ($(grep -v '^\s*$' "$log" | tail -n 1)): install python3's venv module (Debian: python3-venv), then npm test again"
echo "ensure-python: installing $requirements into $venv/" >&2
# -vv: pip says why it could not fetch an index page only at debug level (the log is read on failure only).
# Two retries, not pip's five: an index that does not answer costs seconds per package, not minutes.
if ! "$venv/bin/python" -m pip install -vv --disable-pip-version-check --retries 2 --timeout 30 -r "$requirements" >"$log" 2>&1; then
  rm -rf "$venv"
  index=$(grep -m 1 '^Looking in indexes:' "$log" | sed 's/^Looking in indexes: *//' || true)
  unreachable=$(grep -m 1 '^Could not fetch URL' "$log" || grep -m 1 -E 'Failed to establish a new connection|Name or service not known|Temporary failure in name resolution|Network is unreachable|timed out|ProxyError|SSLError' "$log" || true)
  if [ -n "$unreachable" ]; then
    fail "pip could not reach its index${index:+ $index} ($unreachable)"
  fi
  fail "pip install -r $requirements failed ($(grep -m 1 '^ERROR:' "$log" || tail -n 1 "$log"))"
fi
cp "$requirements" "$stamp"
