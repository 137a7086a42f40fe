#!/bin/bash
# The browser tests of mtrain's HTML pages (tests/browser: `mtrain view`, `mtrain report`):
# installs Debian's chromium where it is missing, the pinned Python test requirements (Playwright
# among them) into the virtual environment target/pyenv as scripts/checks/python-test.sh does, builds
# target/debug/mtrain, and runs pytest on tests/browser. Playwright drives the system's chromium
# (its own browser download is not used).
#
# Usage: scripts/checks/browser-test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi
VENV=target/pyenv
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-test.txt
cargo build --quiet --bin mtrain
MTRAIN="${MTRAIN:-$PWD/target/debug/mtrain}" "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests/browser "$@"
