#!/usr/bin/env bash
# The quick subset of the test suite, to run before a commit: every test binary but the three
# slow ones (durable: kill and resume trials; external: bot processes that misbehave; referee:
# the Python referee over whole tournaments), which take most of the suite's time. CI runs
# them all (`cargo test`). Extra arguments go to cargo test, e.g. a test name filter.
set -euo pipefail
cd "$(dirname "$0")/../.."
args=(--lib --bins)
for f in tests/*.rs; do
    name=$(basename "$f" .rs)
    case "$name" in
        durable | external | referee) ;;
        *) args+=(--test "$name") ;;
    esac
done
exec cargo test "${args[@]}" "$@"
