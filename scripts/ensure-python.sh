#!/usr/bin/env bash
# The tests check a real server on the official `mcp` Python SDK (examples/python/): make the virtual
# environment .venv-python/ from examples/python/requirements.txt when it is missing or out of date,
# or say how in one line. Wheels come from /opt/pypi/files when that folder exists (an offline
# mirror), otherwise from pip's configured index.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-python
requirements=examples/python/requirements.txt
stamp="$venv/requirements.txt"
fail() {
  echo "the Python candidate's environment could not be made ($1): install python3 (3.10 or later, with venv and pip), then run 'bash scripts/ensure-python.sh' and npm test again" >&2
  exit 1
}
# Up to date: the same pinned requirements installed, and the SDK importable.
if cmp -s "$requirements" "$stamp" && "$venv/bin/python" -c 'import importlib.util as u, sys; sys.exit(0 if u.find_spec("mcp") and u.find_spec("uvicorn") else 1)' >/dev/null 2>&1; then
  exit 0
fi
python=$(command -v python3 || true)
[ -n "$python" ] || fail "no python3 on PATH"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' || fail "$("$python" --version 2>&1) is older than 3.10"
rm -rf "$venv"
"$python" -m venv "$venv" || fail "python3 -m venv failed"
if [ -d /opt/pypi/files ]; then
  source=(--no-index --find-links /opt/pypi/files)
else
  source=(--retries 2 --timeout 30)
fi
echo "ensure-python: installing $requirements into $venv/" >&2
"$venv/bin/python" -m pip install --disable-pip-version-check -q "${source[@]}" -r "$requirements" || { rm -rf "$venv"; fail "pip install -r $requirements failed"; }
cp "$requirements" "$stamp"
