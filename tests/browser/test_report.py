"""`mtrain report` pages in a real browser: folders of each kind made with the CLI (fixed seeds,
small), their reports opened in headless Chromium, and what is shown checked against the
folders' own CSV and JSON files: a rating, an interval, a crosstable cell, the balance
recommendation, the header's seed and commit; the plots render, every link reaches a file,
nothing overflows a phone's width, and no page logs an error (the `open_page` fixture asserts
that at teardown).

Run with `scripts/checks/browser-test.sh` (or `target/pyenv/bin/python -m pytest tests/browser`).
"""

import csv
import json
import math
import pathlib
import subprocess
import urllib.parse

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
PHONE = 390


def run(mtrain, *args):
    """Runs mtrain with `args`; fails the test with its stderr unless it exits 0."""
    done = subprocess.run([str(mtrain), *map(str, args)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"mtrain {' '.join(map(str, args))}: {done.stderr}"
    return done.stdout


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def pct(v):
    return f"{100 * float(v):.1f}%"


def pct_interval(v, lo, hi):
    return f"{pct(v)} [{100 * float(lo):.1f}, {100 * float(hi):.1f}]"


def signed(v):
    """An Elo figure as the page prints it: rounded half away from zero, with its sign."""
    r = math.copysign(math.floor(abs(float(v)) + 0.5), float(v))
    return "0" if r == 0 else f"{r:+.0f}"


def squash(text):
    return " ".join(text.split())


@pytest.fixture(scope="module")
def folders(mtrain, tmp_path_factory):
    """One folder of each kind, with its report: tournament, balance, tune (made here), and the
    committed ladder study (its report written outside results/)."""
    root = tmp_path_factory.mktemp("report")
    t, b, u = root / "tournament", root / "balance", root / "tune"
    run(mtrain, "tournament", "--bots", "greedy,random,planner", "--players", "3", "--games", "90",
        "--seed", "7", "--quiet", "--out", t)
    run(mtrain, "balance", "--set", "9", "--players", "2-3", "--hands", "8-10", "--games", "48",
        "--max-games", "48", "--seed", "1", "--quiet", "--out", b)
    run(mtrain, "tune", "--bot", "weighted", "--param", "pips=0:3", "--param", "urgent=0:3",
        "--iterations", "6", "--games", "16", "--confirm-games", "96", "--seed", "2", "--quiet", "--out", u)
    c = root / "compare"
    run(mtrain, "compare", "--ruleset", "wikipedia", "--ruleset", "wikipedia:tap=draw_two", "--hands", "9-10",
        "--games", "160", "--rounds", "3", "--bots", "greedy,random", "--seed", "3", "--quiet", "--out", c)
    for d in (t, b, u, c):
        run(mtrain, "report", d)
    pages = root / "pages"
    pages.mkdir()
    run(mtrain, "report", REPO / "results" / "ladder", "--out", pages / "ladder.html")
    return {"tournament": t, "balance": b, "tune": u, "compare": c, "ladder": REPO / "results" / "ladder",
            "ladder_page": pages / "ladder.html"}


def page_of(folders, kind):
    return folders["ladder_page"] if kind == "ladder" else folders[kind] / "report.html"


def test_tournament_page_shows_what_the_files_say(folders, open_page):
    d = folders["tournament"]
    page = open_page(d / "report.html")
    manifest = json.loads((d / "manifest.json").read_text())
    assert page.evaluate("document.compatMode") == "CSS1Compat"
    assert page.locator("h1").inner_text() == "tournament"
    assert page.locator("dl.facts .seed").inner_text() == str(manifest["seed"])
    if manifest["commit"]:
        assert manifest["commit"] in page.locator("#run").inner_text()
    # A win rate with its interval, and a rating with its interval.
    for r in rows(d / "summary.csv"):
        cell = page.locator(f'table.summary tr[data-bot="{r["strategy"]}"] td').nth(2)
        assert squash(cell.inner_text()) == pct_interval(r["win_rate"], r["win_lo"], r["win_hi"])
    for r in rows(d / "ratings.csv"):
        cell = page.locator(f'table.ratings tr[data-bot="{r["bot"]}"] td').nth(1)
        want = "0 (anchor)" if r["anchor"] == "1" else \
            f'{signed(r["elo"])} [{signed(r["elo_lo"])}, {signed(r["elo_hi"])}]'
        assert squash(cell.inner_text()) == want
    # The ratings chart: a row per bot, drawn.
    chart = page.locator("svg.ratings")
    box = chart.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 60
    assert chart.locator("g.bot").count() == len(rows(d / "ratings.csv"))
    # Crosstable cells, both ways round, and the rank table at three players.
    for r in rows(d / "pairs.csv"):
        ab = page.locator(f'.wld[data-row="{r["a"]}"][data-col="{r["b"]}"]').inner_text()
        ba = page.locator(f'.wld[data-row="{r["b"]}"][data-col="{r["a"]}"]').inner_text()
        assert ab == f'{r["a_ahead"]}\u2013{r["b_ahead"]}\u2013{r["ties"]}'
        assert ba == f'{r["b_ahead"]}\u2013{r["a_ahead"]}\u2013{r["ties"]}'
    assert page.locator("table.ranks tbody tr").count() == 3
    seat0 = rows(d / "seats.csv")[0]
    cell = page.locator('table.seats tr[data-seat="0"] td').nth(2)
    assert squash(cell.inner_text()) == pct_interval(seat0["win_rate"], seat0["win_lo"], seat0["win_hi"])


def test_balance_page_shows_the_recommendation_and_every_plot(folders, open_page):
    d = folders["balance"]
    page = open_page(d / "report.html")
    manifest = json.loads((d / "manifest.json").read_text())
    assert page.locator("dl.facts .seed").inner_text() == str(manifest["seed"])
    for r in rows(d / "recommendation.csv"):
        row = page.locator(f'table.recommendation tr[data-players="{r["players"]}"]')
        assert row.locator(".pick").inner_text() == r["recommended_hand"]
        blocked = row.locator("td").nth(5)
        assert squash(blocked.inner_text()) == pct_interval(r["blocked_rate"], r["blocked_rate_lo"], r["blocked_rate_hi"])
    svgs = sorted(p.name for p in d.glob("*.svg"))
    figures = page.locator("figure.plot")
    assert figures.count() == len(svgs) > 5
    assert sorted(figures.nth(i).get_attribute("data-file") for i in range(figures.count())) == svgs
    for i in range(figures.count()):
        box = figures.nth(i).locator("svg").bounding_box()
        assert box and box["width"] > 300 and box["height"] > 150, svgs[i]
        assert figures.nth(i).locator("svg polyline").count() > 0


def test_tune_page_shows_the_final_values_and_the_confirmation(folders, open_page):
    d = folders["tune"]
    page = open_page(d / "report.html")
    tuned = (d / "tuned.txt").read_text().strip()
    assert page.locator("p.tuned code").inner_text() == tuned
    confirm = rows(d / "confirm.csv")[0]
    assert page.locator("b.decision").inner_text() == confirm["decision"]
    cell = page.locator("table.confirm td").nth(4)
    assert squash(cell.inner_text()) == pct_interval(confirm["score"], confirm["score_lo"], confirm["score_hi"])
    last = rows(d / "trajectory.csv")[-1]
    for key in ("pips", "urgent"):
        final = page.locator(f'table.params tr[data-param="{key}"] td').nth(3)
        assert final.inner_text() == last[key]
    box = page.locator("figure.plot svg").bounding_box()
    assert box and box["width"] > 300 and box["height"] > 150


def test_ladder_page_shows_the_tables_and_the_skill_curve(folders, open_page):
    page = open_page(folders["ladder_page"])
    ladder = rows(folders["ladder"] / "ladder.csv")
    assert page.locator("table.ladder tbody tr").count() == len(ladder)
    first = ladder[0]
    cell = page.locator("table.ladder tbody tr").first.locator("td").nth(4)
    assert squash(cell.inner_text()) == pct_interval(first["a_score"], first["a_score_lo"], first["a_score_hi"])
    skill = rows(folders["ladder"] / "skill.csv")
    assert page.locator("table.skill tbody tr").count() == len(skill)
    box = page.locator('figure.plot[data-file="skill_curve.svg"] svg').bounding_box()
    assert box and box["width"] > 300 and box["height"] > 150
    runs = [p for p in (folders["ladder"] / "runs").iterdir() if (p / "tally.json").is_file()]
    assert page.locator("table.runs tbody tr").count() == len(runs)


@pytest.mark.parametrize("kind", ["tournament", "balance", "tune", "compare", "ladder"])
def test_every_link_reaches_a_file_and_nothing_is_fetched(folders, open_page, kind):
    path = page_of(folders, kind)
    page = open_page(path)
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
    files = [h for h in hrefs if not h.startswith("#")]
    assert files, "no links to the folder's files"
    for h in files:
        assert "://" not in h and not h.startswith("/"), h
        target = (path.parent / urllib.parse.unquote(h)).resolve()
        assert target.is_file(), f"{h} points at nothing"
    for h in hrefs:
        if h.startswith("#"):
            assert page.locator(h).count() == 1, h
    # No script, no external resource of any kind.
    assert page.locator("script, link, img, iframe, object, embed").count() == 0


@pytest.mark.parametrize("kind", ["tournament", "balance", "tune", "compare", "ladder"])
def test_nothing_overflows_a_phone(folders, open_page, kind):
    page = open_page(page_of(folders, kind), width=PHONE, height=800)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE, f"the page is {width}px wide at {PHONE}px"
    # Charts shrink to the screen.
    for svg in page.locator("figure svg").all():
        box = svg.bounding_box()
        assert box and 0 < box["width"] <= PHONE and box["height"] > 0


@pytest.mark.parametrize("width", [1280, PHONE])
def test_the_answer_in_plain_words_comes_first_on_a_laptop_and_a_phone(folders, open_page, width):
    """Both designer pages open with their plain words, on the first screen at either width;
    the compare page's figures are compare.csv's, its key columns (turns, minutes) fit a phone."""
    for kind, first in (("compare", "section#summary p.plain"), ("balance", "section#plain p.plain")):
        page = open_page(folders[kind] / "report.html", width=width, height=800)
        box = page.locator(first).first.bounding_box()
        assert box and box["y"] < 800, f"{kind}: the plain words start at {box} on a {width}px screen"
    summary = (folders["compare"] / "summary.txt").read_text().split("\n\n")[0].strip()
    page = open_page(folders["compare"] / "report.html", width=width, height=800)
    assert squash(page.locator("section#summary p.plain").first.inner_text()) == squash(summary)
    row = next(r for r in rows(folders["compare"] / "compare.csv") if r["hand"] == "9" and r["metric"] == "turns")
    cell = page.locator("table.differences tbody tr[data-hand='9'] td").nth(1)
    assert squash(cell.inner_text()).startswith(f"{float(row['difference']):+.1f} [")
    table = page.locator("table.differences").first.bounding_box()
    minutes = page.locator("table.differences thead th").nth(2).bounding_box()
    assert table and minutes and minutes["x"] + minutes["width"] <= max(width, table["x"] + 1) + 1, (
        f"minutes/match does not fit a {width}px screen: {minutes}"
    )
    # The balance page shows every hand size's verdicts as a table.
    page = open_page(folders["balance"] / "report.html", width=width, height=800)
    decisions = rows(folders["balance"] / "decisions.csv")
    hands = {(r["players"], r["hand"]) for r in decisions}
    assert page.locator("table.verdicts tbody tr").count() == len(hands)
