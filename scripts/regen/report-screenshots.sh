#!/usr/bin/env bash
# Screenshots of `mtrain report` pages for the documentation: a tournament and a balance sweep,
# each made here with fixed seeds, its report written, and the top of the page photographed in
# headless Chromium (Debian's `chromium`, driven by Python playwright from target/pyenv):
#   docs/images/report-tournament.png   mtrain tournament --bots greedy,planner,cutthroat,random --players 4 --games 400 --seed 11
#   docs/images/report-balance.png      mtrain balance --set 9 --players 2-4 --hands 7-12 --games 400 --seed 1
#
# Usage: scripts/regen/report-screenshots.sh   (under a minute on 2 cores once built; MT=path uses
#        another build; PY=path another Python with playwright; OUT=folder writes elsewhere)
set -euo pipefail
cd "$(dirname "$0")/../.."
MT="${MT:-target/debug/mtrain}"
[ "$MT" != target/debug/mtrain ] || cargo build --quiet --bin mtrain
PY="${PY:-target/pyenv/bin/python}"
OUT="${OUT:-docs/images}"
CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$CHROMIUM" ] || { echo "report-screenshots: no chromium on PATH (apt-get install chromium)" >&2; exit 2; }
"$PY" -c "import playwright" 2>/dev/null || { echo "report-screenshots: $PY has no playwright (scripts/checks/browser-test.sh installs it)" >&2; exit 2; }
mkdir -p "$OUT"
WORK=target/report-screenshots   # a fixed place, so the pages' command lines read the same each time
rm -rf "$WORK"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT

"$MT" tournament --bots greedy,planner,cutthroat,random --players 4 --games 400 --seed 11 --quiet \
  --out "$WORK/league-4p" > /dev/null
"$MT" balance --set 9 --players 2-4 --hands 7-12 --games 400 --seed 1 --quiet --out "$WORK/double-9" > /dev/null
"$MT" report "$WORK/league-4p" > /dev/null
"$MT" report "$WORK/double-9" > /dev/null

# shot PAGE PNG WIDTH HEIGHT: the top WIDTH x HEIGHT pixels of the page.
"$PY" - "$CHROMIUM" "$WORK" "$OUT" <<'PY'
import pathlib, sys
from playwright.sync_api import sync_playwright

chromium, work, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
shots = [
    (work / "league-4p" / "report.html", out / "report-tournament.png", 1280, 2000),
    (work / "double-9" / "report.html", out / "report-balance.png", 1280, 1700),
]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
    for page_path, png, width, height in shots:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(page_path.resolve().as_uri())
        page.wait_for_load_state("load")
        if errors:
            sys.exit(f"report-screenshots: {page_path}: console errors: {errors}")
        page.screenshot(path=str(png), clip={"x": 0, "y": 0, "width": width, "height": height})
        print(f"wrote {png}")
    browser.close()
PY
