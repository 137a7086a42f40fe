#!/bin/bash
# The Python package's tests: builds the package into a virtual environment (target/pyenv, made
# on first use) with the pinned test requirements from the registry, then runs pytest, with the
# command line (target/debug/mtrain) to compare against. Part of the README's test command.
#
# Usage: scripts/checks/python-test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=target/pyenv
export PATH="$PWD/$VENV/bin:$PATH"   # the build backend runs maturin from the environment
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-test.txt
# maturin is in the environment: no isolated build environment to download each time.
"$VENV/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps .
cargo build --quiet --bin mtrain
cargo clippy --quiet -p mtrain-python -- -D warnings
MTRAIN="$PWD/target/debug/mtrain" "$VENV/bin/python" -m pytest -q python/tests "$@"
