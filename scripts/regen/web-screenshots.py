#!/usr/bin/env python3
"""Remakes the play page's screenshots in docs/images/ (web-play.png at 1280 px, web-phone.png at
390 px): `mtrain web`'s page, a 4-player game (you against a beginner, a careful and the strongest
bot, seed 0x2a), a few moves played by clicks and a hint asked.

Needs the environment scripts/checks/browser-test.sh sets up. Usage:
    target/pyenv/bin/python scripts/regen/web-screenshots.py [MTRAIN]   (about a minute)
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[2]
MTRAIN = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "target" / "release" / "mtrain")


def game(page):
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    page.select_option("#players", "4")
    for i, s in enumerate(["human", "greedy", "planner", "expert"]):
        page.select_option(f'#seat-list select[data-seat="{i}"]', s)
    page.fill("#seed", "0x2a")
    page.click("#start")
    for _ in range(6):
        page.wait_for_function("() => /^(Your move|You drew|Cover)/.test(document.getElementById('prompt').textContent)", timeout=60_000)
        tiles = page.locator("#hand .tile.playable")
        if tiles.count():
            tiles.first.click()
            page.locator("#trains .train.target").first.click()
        else:
            page.locator("#move-list .move").first.click()
    page.wait_for_function("() => /^(Your move|You drew|Cover)/.test(document.getElementById('prompt').textContent)", timeout=60_000)
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Best:')", timeout=60_000)


with tempfile.TemporaryDirectory() as d:
    html = pathlib.Path(d) / "mtrain.html"
    subprocess.run([str(MTRAIN), "web", "--out", str(html)], check=True, capture_output=True)
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox"])
        for name, w, h in [("web-play.png", 1280, 900), ("web-phone.png", 390, 844)]:
            page = b.new_page(viewport={"width": w, "height": h})
            page.goto(html.resolve().as_uri())
            game(page)
            page.screenshot(path=str(REPO / "docs" / "images" / name), full_page=(w > 400))
            page.close()
        b.close()
print("wrote docs/images/web-play.png, docs/images/web-phone.png")
