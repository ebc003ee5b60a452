#!/usr/bin/env bash
# `npm test`: the type-check, the format and lint check (Biome) and vitest side by side (vitest spends
# much of its time waiting on loopback sockets, so the checks fit in its idle CPU); fails if any fails. Arguments go to
# vitest (e.g. `npm test -- test/model`). Before vitest starts, what the selected tests need besides
# node_modules is installed when missing (scripts/test-needs.ts: redis-server, .venv-python/), and
# only that: an install that fails stops the run with its cause.
set -u
cd "$(dirname "$0")/.."
node node_modules/typescript/bin/tsc --noEmit -p . > .typecheck.log 2>&1 &
typecheck=$!
node node_modules/@biomejs/biome/bin/biome ci --reporter=summary --colors=off . > .lint.log 2>&1 &
lint=$!
stop_typecheck() {
  kill "$typecheck" 2>/dev/null
  wait "$typecheck" 2>/dev/null
  rm -f .typecheck.log
  kill "$lint" 2>/dev/null
  wait "$lint" 2>/dev/null
  rm -f .lint.log
}
needs=$(node bin/run-ts.js scripts/test-needs.ts "$@") || { stop_typecheck; echo "npm test: could not tell what the selected tests need (scripts/test-needs.ts)" >&2; exit 1; }
installs=()
for need in $needs; do
  bash "scripts/ensure-$need.sh" &
  installs+=("$!")
done
installed=0
for pid in "${installs[@]}"; do
  wait "$pid" || installed=1
done
if [ "$installed" -ne 0 ]; then
  stop_typecheck
  exit 1
fi
node node_modules/vitest/vitest.mjs run "$@"
tests=$?
wait "$typecheck"
types=$?
if [ "$types" -ne 0 ]; then
  cat .typecheck.log
  echo "npm test: the type-check failed (tsc --noEmit -p .)" >&2
fi
rm -f .typecheck.log
wait "$lint"
lints=$?
if [ "$lints" -ne 0 ]; then
  cat .lint.log
  echo "npm test: the format or lint check failed (biome ci; npm run format formats and applies the safe fixes)" >&2
fi
rm -f .lint.log
[ "$tests" -eq 0 ] && [ "$types" -eq 0 ] && [ "$lints" -eq 0 ]
