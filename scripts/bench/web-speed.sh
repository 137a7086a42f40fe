#!/usr/bin/env bash
# The play page against the native engine, in one run: greedy rounds per second of the same work
# (full 4-player wikipedia matches, `mtrain_web::lab::greedy_rounds`) natively and in the page's
# Web Worker in headless Chromium (median of 3 each), the time of a hint at the analyst's
# defaults over the first 8 decisions of a 4-player game (you and three `expert` bots, seed
# 0x2a, each hinted move played; median and slowest), and the page's size. Writes results/web/speed.csv, which README quotes
# (tests/readme_numbers.rs checks the quote).
#
# Needs the environment of scripts/checks/browser-test.sh (target/pyenv with Playwright, and
# chromium). Usage: scripts/bench/web-speed.sh   (about 3 minutes once built)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${ROUNDS:-200000}"
cargo build --quiet --release --bin mtrain
cargo build --quiet --release -p mtrain-web --example speed
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
target/release/mtrain web --out "$WORK/mtrain.html" > /dev/null
native=$(target/release/examples/speed "$ROUNDS")
target/pyenv/bin/python - "$WORK/mtrain.html" "$native" "$ROUNDS" <<'PY'
import os, pathlib, re, shutil, statistics, sys
from playwright.sync_api import sync_playwright

page_file, native, rounds = pathlib.Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
HINTS = 8
exe = os.environ.get("CHROMIUM") or shutil.which("chromium")
with sync_playwright() as p:
    b = p.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox"])
    page = b.new_page()
    page.goto(page_file.resolve().as_uri())
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    rates = []
    for _ in range(3):
        page.evaluate(f"() => {{ delete document.getElementById('bench-result').dataset.rate; document.getElementById('bench').dataset.rounds = '{rounds}'; }}")
        page.click("#bench")
        page.wait_for_selector("#bench-result[data-rate]", timeout=300_000)
        rates.append(float(page.get_attribute("#bench-result", "data-rate")))
    browser = statistics.median(rates)
    page.select_option("#players", "4")
    for i, s in enumerate(["human", "expert", "expert", "expert"]):
        page.select_option(f'#seat-list select[data-seat="{i}"]', s)
    page.fill("#seed", "0x2a")
    page.click("#start")
    hints = []
    for _ in range(HINTS):
        page.wait_for_function("() => /^(Your move|You drew|Cover)/.test(document.getElementById('prompt').textContent)", timeout=60_000)
        page.click("#hint")
        page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Best:')", timeout=60_000)
        hints.append(float(re.search(r"([0-9.]+) s\)$", page.text_content("#hint-text").strip()).group(1)))
        # Play the hinted move (its tile is selected): its first highlighted train.
        if page.locator("#hand .tile.selected").count():
            page.locator("#trains .train.target").first.click()
        else:
            page.locator("#move-list .move").first.click()
    b.close()
hint, hint_max = statistics.median(hints), max(hints)
size = page_file.stat().st_size
os.makedirs("results/web", exist_ok=True)
with open("results/web/speed.csv", "w") as f:
    f.write("rounds,native_rounds_per_s,browser_rounds_per_s,browser_share,hints,hint_s,hint_max_s,page_bytes\n")
    f.write(f"{rounds},{native:.0f},{browser:.0f},{browser / native:.3f},{HINTS},{hint:.2f},{hint_max:.2f},{size}\n")
print(open("results/web/speed.csv").read(), end="")
PY
