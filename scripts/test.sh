#!/bin/sh
# The whole test suite, as `npm test` runs it: vitest's two projects (vitest.config.ts) as two
# vitest processes at once — `servers` (two files at a time) beside `editor` (one real VS Code at
# a time). One `vitest run` would run them one after the other (vitest runs groups in turn), and
# much of both is waiting on other processes (servers indexing, code-server and Chromium starting),
# so together they finish minutes earlier on two cores. Arguments go to both (e.g. a file filter:
# a project with no file of it passes). Exits non-zero if either project fails; both always run
# to their end; an interrupt stops both.
set -u
cd "$(dirname "$0")/.."
vitest=node_modules/.bin/vitest

"$vitest" run --project servers --passWithNoTests "$@" &
servers=$!
"$vitest" run --project editor --passWithNoTests "$@" &
editor=$!
trap 'kill -TERM "$servers" "$editor" 2>/dev/null' INT TERM

wait "$servers"
servers_status=$?
wait "$editor"
editor_status=$?
echo "test: servers project exit $servers_status, editor project exit $editor_status" >&2
[ "$servers_status" -eq 0 ] && [ "$editor_status" -eq 0 ]
