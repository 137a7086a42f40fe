"""Fixtures for the browser tests of mtrain's HTML pages (`mtrain view`, `mtrain report`).

Run them with `scripts/checks/browser-test.sh` (it installs what they need and builds the binary).

The contract other test files rely on:

- `mtrain`: a `pathlib.Path` to the binary: the environment variable `MTRAIN` when set, else
  `target/debug/mtrain` in the repository.
- `open_page`: a function `open_page(path, width=1280, height=900) -> page` that opens the file
  `path` in a headless Chromium of that viewport size and returns the Playwright sync `Page`, loaded.
  `page.console_errors` is a list that collects every console error and uncaught page error;
  the fixture's teardown asserts that it is empty for every page opened.

The browser is the system's `chromium` (Debian's package), found on PATH: Playwright's own
browser download is not used.
"""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def mtrain() -> pathlib.Path:
    """The mtrain binary: $MTRAIN, else target/debug/mtrain."""
    path = pathlib.Path(os.environ.get("MTRAIN") or REPO / "target" / "debug" / "mtrain")
    if not path.is_file():
        pytest.fail(f"no mtrain binary at {path}: run `cargo build --bin mtrain` or set MTRAIN")
    return path


@pytest.fixture(scope="session")
def _browser():
    """One headless Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        pytest.fail("no chromium on PATH: run scripts/checks/browser-test.sh, which installs it")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, headless=True, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def open_page(_browser):
    """`open_page(path, width=1280, height=900)`: the file loaded in a fresh page; console
    errors and page errors collect in `page.console_errors`, which must stay empty."""
    contexts = []
    pages = []

    def _open(path, width=1280, height=900):
        context = _browser.new_context(viewport={"width": int(width), "height": int(height)})
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.console_errors = errors
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        # No page of mtrain may reach the network: every request but the file itself fails.
        url = pathlib.Path(path).resolve().as_uri()

        def _route(route):
            if route.request.url == url or route.request.url.startswith("data:"):
                route.continue_()
            else:
                errors.append(f"network request: {route.request.url}")
                route.abort()

        page.route("**/*", _route)
        page.goto(url)
        page.wait_for_load_state("load")
        pages.append(page)
        return page

    yield _open
    collected = [e for p in pages for e in p.console_errors]
    for context in contexts:
        context.close()
    assert not collected, "console or page errors:\n" + "\n".join(collected)
