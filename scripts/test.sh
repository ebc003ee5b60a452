#!/usr/bin/env bash
# `npm test`: the type-check and vitest side by side (vitest spends much of its time waiting on
# loopback sockets, so the type-check fits in its idle CPU); fails if either fails. Arguments go to
# vitest (e.g. `npm test -- test/model`).
set -u
cd "$(dirname "$0")/.."
node node_modules/typescript/bin/tsc --noEmit -p . > .typecheck.log 2>&1 &
typecheck=$!
node node_modules/vitest/vitest.mjs run "$@"
tests=$?
wait "$typecheck"
types=$?
if [ "$types" -ne 0 ]; then
  cat .typecheck.log
  echo "npm test: the type-check failed (tsc --noEmit -p .)" >&2
fi
rm -f .typecheck.log
[ "$tests" -eq 0 ] && [ "$types" -eq 0 ]
