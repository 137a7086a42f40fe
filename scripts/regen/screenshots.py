#!/usr/bin/env python3
"""Remakes the screenshots of `mtrain view` in docs/images: viewer.png (a laptop, 1280x900) and
viewer-phone.png (a phone, 390x844 at twice the pixel density).

The page is made from a fixed match (`mtrain play --players 4 --seed 7 --log ...`, the wikipedia
rules) and shown at a fixed move, so the images change only when the page does.

Usage (after scripts/checks/browser-test.sh has set up target/pyenv and chromium):
    target/pyenv/bin/python scripts/regen/screenshots.py [--mtrain target/debug/mtrain] [--move 95]
"""

import argparse
import pathlib
import shutil
import subprocess
import tempfile

from playwright.sync_api import sync_playwright

REPO = pathlib.Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mtrain", default=str(REPO / "target" / "debug" / "mtrain"), help="the mtrain binary")
    ap.add_argument("--move", type=int, default=95, help="the move to show")
    ap.add_argument("--out", default=str(REPO / "docs" / "images"), help="the folder for the PNGs")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        log = pathlib.Path(tmp) / "game.jsonl"
        subprocess.run([a.mtrain, "play", "--players", "4", "--seed", "7", "--log", str(log)], check=True, capture_output=True)
        subprocess.run([a.mtrain, "view", str(log)], check=True, capture_output=True)
        page_path = log.with_suffix(".html")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=["--no-sandbox"])
            shots = [("viewer.png", 1280, 900, 1), ("viewer-phone.png", 390, 844, 2)]
            for name, width, height, scale in shots:
                page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=scale)
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(page_path.as_uri())
                page.evaluate(f"() => {{ for (let i = 0; i < {a.move}; i++) document.getElementById('next').click(); }}")
                page.screenshot(path=str(out / name))
                if errors:
                    raise SystemExit(f"page errors: {errors}")
                print(f"wrote {out / name}")
            browser.close()


if __name__ == "__main__":
    main()
