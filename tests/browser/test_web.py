"""`mtrain web`: a person plays a whole match in the page by clicking, and the page's log is the
log `mtrain play --human 0 --log` writes for the same seed and the same choices; a hint, a save,
a reload and a resume on the way; no console errors, no network; laptop and phone sizes.
"""

import json
import subprocess

import pytest

SEED = "0x2a"
ROUNDS = "2"


@pytest.fixture(scope="module")
def page_file(tmp_path_factory, mtrain):
    d = tmp_path_factory.mktemp("web")
    out = d / "mtrain.html"
    r = subprocess.run([str(mtrain), "web", "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return out


def ready(page):
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)


def setup(page, players="2", seats=("human", "expert"), rounds=ROUNDS):
    page.select_option("#players", players)
    for i, s in enumerate(seats):
        page.select_option(f'#seat-list select[data-seat="{i}"]', s)
    page.select_option("#rounds", rounds)
    page.fill("#seed", SEED)


def settle(page):
    """Waits until the page has no request in flight (body without data-busy: until then the
    decision on screen may be the last one's) and asks the person (its prompt and its legal
    moves listed), pauses between rounds with its button shown, or the match is over."""
    page.wait_for_function(
        """() => {
            if (document.body.dataset.busy) return false;
            const p = document.getElementById('prompt').textContent;
            const asks = p.startsWith('Your move') || p.startsWith('You drew') || p.startsWith('Where');
            const listed = document.querySelectorAll('#move-list .move').length > 0;
            const go = document.getElementById('pause-go');
            const paused = !document.getElementById('pause').hidden && go.offsetParent !== null;
            return (asks && listed) || p.startsWith('Cover') || paused;
        }""",
        timeout=60_000,
    )


def take_turn(page):
    """One decision by clicks: a playable tile then its first highlighted train, else the first
    listed move (a move that places no tile)."""
    tiles = page.locator("#hand .tile.playable")
    if page.locator("#hand .tile.selected").count():
        page.locator("#trains .train.target").first.click()
    elif tiles.count():
        tiles.first.click()
        page.locator("#trains .train.target").first.click()
    else:
        page.locator("#move-list .move").first.click()


def play_on(page, stop_after=None):
    """Plays until the match is over (or `stop_after` decisions); returns the decisions made."""
    made = 0
    while True:
        settle(page)
        if not page.locator("#pause").is_hidden():
            if page.locator("#pause-title").text_content() == "Match over":
                return made
            page.click("#pause-go")
            continue
        if stop_after is not None and made >= stop_after:
            return made
        take_turn(page)
        made += 1
        page.wait_for_function("() => !document.getElementById('prompt').textContent.startsWith('Where')", timeout=60_000)


def download(page, button):
    with page.expect_download() as d:
        page.click(button)
    return open(d.value.path(), encoding="utf-8").read()


def cli_log(mtrain, tmp_path, choices):
    """The log `mtrain play --human 0` writes for these choices: the page's choices as the
    command line's save file, resumed with --resume (which replays them without asking)."""
    save = tmp_path / "cli-save.json"
    save.write_text(json.dumps({
        "mtrain_save": 1, "rules": "wikipedia", "rule": [], "set": 12, "players": 2, "hand": None,
        "rounds": int(ROUNDS), "bots": "greedy,expert", "names": [], "human": 0, "seed": SEED,
        "choices": choices,
    }, separators=(",", ":")))
    log = tmp_path / "cli.jsonl"
    r = subprocess.run([str(mtrain), "play", "--resume", str(save), "--log", str(log)],
                       input="", capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return log.read_text()


def test_a_whole_match_by_clicks_with_a_hint_a_save_and_a_resume_gives_the_cli_log(open_page, page_file, mtrain, tmp_path):
    page = open_page(page_file, 1280, 900)
    ready(page)
    setup(page)
    page.click("#start")
    settle(page)
    # A hint names the best move and selects its tile.
    page.click("#hint")
    page.wait_for_function("() => document.getElementById('hint-text').textContent.startsWith('Best:')", timeout=60_000)
    assert "hint: move" in page.text_content("#hint-text")
    # Your train is called so.
    assert page.locator('#trains .train.yours[data-train="0"]').count() == 1
    made = play_on(page, stop_after=4)
    assert made == 4
    page.click("#save")
    # A reload loses nothing: the saved game resumes where it was.
    page.reload()
    ready(page)
    assert page.locator("#resume").is_visible()
    page.click("#resume")
    play_on(page)
    log = download(page, "#download-log")
    saved = json.loads(download(page, "#download-save"))
    assert saved["game"]["seed"] == SEED and saved["game"]["seats"] == ["human", "expert"]
    assert len(saved["choices"]) > 4
    assert log.rstrip("\n").splitlines()[-1].startswith('{"event":"match_end"')
    assert log == cli_log(mtrain, tmp_path, saved["choices"])
    page.screenshot(path=str(tmp_path / "laptop.png"), full_page=True)


def test_the_review_grades_every_decision_shows_the_position_and_tries_again(open_page, page_file, tmp_path):
    page = open_page(page_file, 1280, 900)
    ready(page)
    setup(page, rounds="1")
    page.click("#start")
    made = play_on(page)
    page.click("#review-go")
    page.wait_for_function("() => document.getElementById('review-summary').textContent.length > 0", timeout=120_000)
    items = page.locator("#review-list li")
    assert items.count() == made, "one graded row per decision the person made"
    assert page.text_content("#review-summary").startswith(f"You: {made} decisions")
    # A decision's position, its best move outlined, and a new try from there.
    items.nth(made - 1).click()
    assert page.locator("#position").is_visible()
    assert "the best was" in page.text_content("#position-text")
    page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
    page.click("#position-retry")
    settle(page)
    assert page.locator("#pause").is_hidden()
    assert page.text_content("#prompt").startswith(("Your move", "You drew", "Cover", "Where"))


def test_on_a_phone_the_hand_comes_first_and_nothing_scrolls_sideways(open_page, page_file):
    page = open_page(page_file, 390, 844)
    ready(page)
    setup(page)
    page.click("#start")
    settle(page)
    hand = page.locator("#hand").bounding_box()
    table = page.locator("#table-panel").bounding_box()
    assert hand["y"] < table["y"], "the hand is above the table on a phone"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 391, f"the page is {width} px wide at 390"


def test_pass_and_play_covers_the_next_persons_tiles(open_page, page_file):
    page = open_page(page_file, 1280, 900)
    ready(page)
    setup(page, "3", ("human", "human", "greedy"))
    page.click("#start")
    page.wait_for_selector("#cover:not([hidden])")
    assert page.locator("#hand .tile").count() == 0
    page.click("#cover-show")
    assert page.locator("#hand .tile").count() > 0


def test_a_bad_seed_says_why_and_starts_nothing(open_page, page_file):
    page = open_page(page_file, 1280, 900)
    ready(page)
    setup(page)
    page.fill("#seed", "banana")
    page.click("#start")
    page.wait_for_function("() => document.getElementById('setup-error').textContent.length > 0")
    assert "seed 'banana' is not a number" in page.text_content("#setup-error")
    assert page.locator("#game").is_hidden()


def test_the_engine_measures_its_speed_in_the_page(open_page, page_file):
    page = open_page(page_file, 1280, 900)
    ready(page)
    page.click("#bench")
    page.wait_for_selector("#bench-result[data-rate]", timeout=120_000)
    assert float(page.get_attribute("#bench-result", "data-rate")) > 1000


# ---------------------------------------------------------------- the rules lab

LAB_SEED = "0x5eed"


def lab_setup(page, games, seed=LAB_SEED):
    """The lab tab: wikipedia against wikipedia with tap=draw_two (set by hand), 4 seats, the
    baseline's hand, `games` games, `seed`."""
    page.click('#tabs .tab[data-tab="lab"]')
    assert page.locator("#lab").is_visible() and page.locator("#setup").is_hidden()
    page.select_option("#lab-a select >> nth=0", "wikipedia")
    page.select_option("#lab-b select >> nth=0", "wikipedia")
    page.select_option("#lab-b .rule-add select", "tap")
    page.fill("#lab-b .rule-add input", "draw_two")
    page.click("#lab-b .rule-add button")
    assert page.locator("#lab-b .lab-changes code").all_text_contents() == ["tap=draw_two"]
    page.select_option("#lab-players", "4")
    page.select_option("#lab-hands", "dealt")
    page.fill("#lab-games", games)
    page.fill("#lab-seed", seed)


def lab_run(page):
    """Runs the comparison, watching the progress bar; returns the values it showed."""
    page.evaluate(
        """() => {
            window.labSeen = [];
            window.labWatch = setInterval(() => {
                const p = document.getElementById('lab-progress');
                if (!document.getElementById('lab-progress-box').hidden) window.labSeen.push([p.value, p.max]);
            }, 2);
        }"""
    )
    page.click("#lab-run")
    page.wait_for_selector("#lab-results:not([hidden])", timeout=120_000)
    return page.evaluate("() => { clearInterval(window.labWatch); return window.labSeen; }")


def cli_compare(mtrain, command, out):
    """The page's command line, run: the files `mtrain compare` writes."""
    import shlex

    words = shlex.split(command)
    assert words[:2] == ["mtrain", "compare"], command
    r = subprocess.run([str(mtrain), *words[1:], "--quiet", "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return {f: (out / f).read_text() for f in ("compare.csv", "summary.txt")}


def test_the_rules_lab_compares_two_rule_sets_with_the_command_lines_figures(open_page, page_file, mtrain, tmp_path):
    page = open_page(page_file, 1280, 900)
    ready(page)
    lab_setup(page, "200")
    seen = lab_run(page)
    total = page.evaluate("() => document.getElementById('lab-progress').max")
    assert total == 400, "200 games under each rule set"
    assert page.evaluate("() => document.getElementById('lab-progress').value") == total, "the bar reaches its end"
    assert page.text_content("#lab-progress-text") == "400 of 400 games"
    assert any(0 < v < m for v, m in seen), f"the bar moved through the run: {seen[:5]}..."
    command = page.text_content("#lab-command")
    assert command == (
        "mtrain compare --ruleset wikipedia --ruleset wikipedia:tap=draw_two --players 4 --hands 15 --games 200 --seed 24301"
    )
    cli = cli_compare(mtrain, command, tmp_path / "cmp")
    # The verdict in plain words: the command line's summary.txt, a paragraph each.
    paragraphs = [p for p in cli["summary.txt"].split("\n\n") if p.strip()]
    assert page.locator("#lab-summary p").all_text_contents() == [p.strip() for p in paragraphs]
    assert "Under wikipedia:tap=draw_two (against wikipedia) at 4 players, hands of 15 tiles" in paragraphs[0]
    # The files, byte for byte.
    assert download(page, "#lab-csv") == cli["compare.csv"]
    assert download(page, "#lab-summary-file") == cli["summary.txt"]
    # One figure of the table: the difference in turns a round, as compare.csv has it.
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(cli["compare.csv"])))
    turns = next(r for r in rows if r["metric"] == "turns")
    cell = page.locator('#lab-table tr[data-metric="turns"][data-hand="15"] td.difference')
    exact = float(cell.get_attribute("data-value"))
    assert f"{exact:.6f}" == turns["difference"]
    assert cell.text_content() == f"{exact:+.1f}"
    verdict = page.text_content('#lab-table tr[data-metric="turns"] td.verdict')
    assert turns["verdict"] == "changes" and verdict == "changes"
    assert page.locator("#lab-few").is_hidden()
    # The headline figures in the table, every one with "Every figure".
    headline = page.locator("#lab-table tbody tr").count()
    assert 5 <= headline <= 7
    page.check("#lab-every")
    assert page.locator("#lab-table tbody tr").count() == len(rows)
    # The plot: a row per headline difference, with its interval, inside the page's width.
    assert page.locator("#lab-plot svg .lab-row").count() == headline
    assert page.locator("#lab-plot svg .lab-row .lab-interval").count() == 3 * headline
    assert page.locator("#lab-plot svg .lab-band").count() == 1
    box = page.locator("#lab-plot svg").bounding_box()
    assert box["width"] <= 1280 and box["height"] > 100
    page.screenshot(path=str(tmp_path / "lab-laptop.png"), full_page=True)
    # Back to Play: the game's setup, the lab out of view.
    page.click('#tabs .tab[data-tab="play"]')
    assert page.locator("#setup").is_visible() and page.locator("#lab").is_hidden()


def test_the_rules_lab_on_a_phone_fits_its_width(open_page, page_file, tmp_path):
    page = open_page(page_file, 390, 844)
    ready(page)
    lab_setup(page, "40", seed="3")
    lab_run(page)
    assert page.locator("#lab-summary p").count() >= 1
    # 40 games are too few deals to judge: the page says how many games would be.
    assert "give at least" in page.text_content("#lab-few")
    assert page.locator("#lab-plot svg .lab-row").count() >= 5
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 391, f"the page is {width} px wide at 390"
    box = page.locator("#lab-plot svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 391
    page.screenshot(path=str(tmp_path / "lab-phone.png"), full_page=True)


def test_the_rules_lab_refuses_a_hand_it_cannot_deal_in_one_line(open_page, page_file):
    page = open_page(page_file, 1280, 900)
    ready(page)
    lab_setup(page, "100")
    page.select_option("#lab-hands", "custom")
    page.fill("#lab-hands-custom", "30")
    page.click("#lab-run")
    page.wait_for_function("() => document.getElementById('lab-error').textContent.length > 0")
    error = page.text_content("#lab-error")
    assert "cannot be dealt to 4 players" in error and "\n" not in error
    assert page.locator("#lab-results").is_hidden() and not page.locator("#lab-run").is_disabled()


def test_the_guide_lists_the_rules_with_their_sizes_and_sets_an_example(open_page, page_file):
    page = open_page(page_file, 1280, 900)
    ready(page)
    page.click('#tabs .tab[data-tab="guide"]')
    assert page.locator("#game").is_hidden() and page.locator("#setup").is_hidden()
    rules = page.locator("#guide-rules .guide-rule")
    assert rules.count() >= 10
    first = rules.first.text_content()
    assert "points a round" in first and "plan_tile" in first
    rules.first.locator("button").click()
    page.wait_for_selector("#guide-position:not([hidden])")
    assert page.text_content("#guide-position-text").startswith("Move 15 of the example match")
    assert page.locator("#guide-trains .train.target").count() == 1
    assert page.locator("#guide-hands .tile.selected").count() == 1
    page.click('#tabs .tab[data-tab="play"]')
    assert page.locator("#guide").is_hidden() and page.locator("#setup").is_visible()
