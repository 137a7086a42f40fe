"""`mtrain view`: the page replays the log in the browser, and what it shows agrees with the log.

Logs are made with the command line at fixed seeds; the expected positions come from a small
replay of the log here (hands, boneyard, trains), independent of the page's script.
"""

import json
import subprocess

import pytest

PRESETS = ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"]

# Every preset at 4 players, seed 7, and variations that bring in the rarer events: branches,
# last-tile penalties and skips, a second Mexican train, redeals.
LOGS = {p: ["--rules", p, "--players", "4", "--seed", "7"] for p in PRESETS}
LOGS["branching"] = ["--rules", "wikipedia", "--rule", "branching_doubles=four_way", "--players", "4", "--seed", "7"]
LOGS["penalties"] = ["--rules", "harbour_cay", "--rule", "tap=draw_one_else_skip", "--players", "4", "--seed", "3"]
LOGS["two_mexican"] = ["--rules", "wikipedia", "--rule", "max_mexican_trains=2", "--players", "4", "--seed", "7"]
LOGS["redeal"] = ["--rules", "harbour_cay", "--players", "3", "--hand", "2", "--rounds", "2", "--seed", "3"]
LOGS["six_players"] = ["--rules", "dominorules", "--players", "6", "--seed", "5", "--rounds", "2"]


def run(mtrain, *args):
    out = subprocess.run([str(mtrain), *map(str, args)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out


@pytest.fixture(scope="module")
def logs(tmp_path_factory, mtrain):
    """name -> (log path, page path, events)."""
    d = tmp_path_factory.mktemp("logs")
    made = {}
    for name, args in LOGS.items():
        log = d / f"{name}.jsonl"
        run(mtrain, "play", *args, "--log", log)
        run(mtrain, "view", log)
        events = [json.loads(line) for line in log.read_text().splitlines()]
        made[name] = (log, d / f"{name}.html", events)
    return made


def key(t):
    a, b = map(int, t.split("-"))
    return f"{min(a, b)}-{max(a, b)}"


def replay(events, n):
    """The position after move n (events 1..n), as the log states it."""
    s = {"round": 0, "hands": [], "boneyard": [], "trains": {}, "markers": set(), "scores": {}}
    for ev in events[1 : n + 1]:
        kind = ev["event"]
        if kind == "round":
            s.update(round=ev["round"], hands=[list(h) for h in ev["hands"]], boneyard=list(ev["boneyard"]))
            s["trains"], s["markers"] = {}, set()
        elif kind == "engine":
            s["hands"][ev["seat"]].remove(key(ev["tile"]))
        elif kind == "play":
            s["hands"][ev["seat"]].remove(key(ev["tile"]))
            s["trains"].setdefault(str(ev["train"]), []).append(ev["tile"])
        elif kind == "draw":
            assert s["boneyard"].pop(0) == ev["tile"]
            s["hands"][ev["seat"]].append(ev["tile"])
        elif kind == "penalty":
            for t in ev["tiles"]:
                assert s["boneyard"].pop(0) == t
                s["hands"][ev["seat"]].append(t)
        elif kind == "mark":
            s["markers"].add(ev["seat"])
        elif kind == "unmark":
            s["markers"].discard(ev["seat"])
        elif kind == "round_end":
            s["scores"][s["round"]] = ev["scores"]
    return s


def counter(page):
    return page.text_content("#counter").strip()


def hand_sizes(page):
    return [int(x) for x in page.eval_on_selector_all("#hands .hand", "els => els.map(e => e.dataset.count)")]


def last_tile(page, train):
    return page.eval_on_selector(
        f'#trains .train[data-train="{train}"] .tiles',
        "row => { const t = row.querySelectorAll('.tile'); return t.length ? t[t.length - 1].dataset.tile : null; }",
    )


def test_buttons_and_arrow_keys_step_through_the_moves(logs, open_page):
    _, page_path, events = logs["wikipedia"]
    last = len(events) - 1
    page = open_page(page_path)
    assert counter(page) == f"move 0 / {last}"
    assert page.is_disabled("#prev") and page.is_disabled("#first")
    for _ in range(5):
        page.click("#next")
    assert counter(page) == f"move 5 / {last}"
    page.click("#prev")
    assert counter(page) == f"move 4 / {last}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert counter(page) == f"move 5 / {last}"
    page.click("#last")
    assert counter(page) == f"move {last} / {last}"
    assert page.is_disabled("#next")
    page.keyboard.press("Home")
    assert counter(page) == f"move 0 / {last}"
    page.keyboard.press("End")
    assert counter(page) == f"move {last} / {last}"
    page.click("#first")
    assert counter(page) == f"move 0 / {last}"
    # The header: rules, players, bots per seat, seed.
    assert page.text_content('#facts [data-fact="rules"] dd') == "wikipedia"
    assert page.text_content('#facts [data-fact="players"] dd') == "4"
    assert page.text_content('#facts [data-fact="seed"] dd') == "7"
    assert page.eval_on_selector_all("#seats .seat-chip", "els => els.map(e => e.textContent)") == [
        "Seat 0: greedy", "Seat 1: random", "Seat 2: greedy", "Seat 3: random",
    ]


def test_trains_hands_and_boneyard_after_n_moves_match_the_log(logs, open_page):
    _, page_path, events = logs["wikipedia"]
    page = open_page(page_path)
    n = 60
    for _ in range(n):
        page.keyboard.press("ArrowRight")
    assert counter(page) == f"move {n} / {len(events) - 1}"
    want = replay(events, n)
    assert want["trains"], "the test needs tiles on the table by then"
    for train, tiles in want["trains"].items():
        assert last_tile(page, train) == tiles[-1], f"train {train}"
        count = page.get_attribute(f'#trains .train[data-train="{train}"]', "data-count")
        assert int(count) == len(tiles)
    assert hand_sizes(page) == [len(h) for h in want["hands"]]
    assert int(page.text_content("#boneyard-count")) == len(want["boneyard"])
    # Hands face up: seat 0's tiles are those of the log.
    shown = page.eval_on_selector_all('#hands .hand[data-seat="0"] .tile', "els => els.map(e => e.dataset.tile)")
    assert sorted(shown) == sorted(want["hands"][0])
    # Markers: exactly the seats whose marker the log has on.
    marked = page.eval_on_selector_all("#trains .train.marked", "els => els.map(e => Number(e.dataset.train))")
    assert set(marked) == want["markers"]
    # The move text names the event.
    ev = events[n]
    if ev["event"] == "play":
        assert f"plays {ev['tile']}" in page.text_content("#event-text")


def test_jump_to_a_round_and_the_scores_after_a_round(logs, open_page):
    _, page_path, events = logs["dominorules"]
    last = len(events) - 1
    page = open_page(page_path)
    start3 = next(i for i, e in enumerate(events) if e["event"] == "round" and e["round"] == 3)
    page.select_option("#round-select", "3")
    assert counter(page) == f"move {start3} / {last}"
    want = replay(events, start3)
    assert hand_sizes(page) == [len(h) for h in want["hands"]]
    # Rounds 1 and 2 are scored, round 3 not yet.
    ends = [e["scores"] for e in events if e["event"] == "round_end"]
    for r in (1, 2):
        cells = page.eval_on_selector_all(f'#scores tr[data-round="{r}"] td[data-seat]', "els => els.map(e => e.textContent)")
        assert cells == [str(x) for x in ends[r - 1]]
    assert page.eval_on_selector_all('#scores tr[data-round="3"] td.pending', "els => els.length") == 4
    totals = page.eval_on_selector_all("#scores td[data-total-seat]", "els => els.map(e => Number(e.textContent))")
    assert totals == [a + b for a, b in zip(ends[0], ends[1])]
    # The last move of round 3 (its round_end) shows its scores; Page Down goes to round 4.
    end3 = next(i for i, e in enumerate(events) if e["event"] == "round_end" and i > start3)
    page.keyboard.press("PageDown")
    start4 = next(i for i, e in enumerate(events) if e["event"] == "round" and e["round"] == 4)
    assert counter(page) == f"move {start4} / {last}"
    assert page.input_value("#round-select") == "4"
    for _ in range(start4 - end3):
        page.keyboard.press("ArrowLeft")
    assert counter(page) == f"move {end3} / {last}"
    cells = page.eval_on_selector_all('#scores tr[data-round="3"] td[data-seat]', "els => els.map(e => e.textContent)")
    assert cells == [str(x) for x in ends[2]]
    assert "Round over" in page.text_content("#event-text")
    # The end: the match's totals and winner.
    page.keyboard.press("End")
    final = events[-1]
    totals = page.eval_on_selector_all("#scores td[data-total-seat]", "els => els.map(e => Number(e.textContent))")
    assert totals == final["totals"]
    winners = page.eval_on_selector_all("#scores td.winner", "els => els.map(e => Number(e.dataset.totalSeat))")
    assert winners == final["winners"]


def test_a_redealt_round_shows_the_deal_that_is_played(logs, open_page):
    _, page_path, events = logs["redeal"]
    rounds = [(i, e) for i, e in enumerate(events) if e["event"] == "round" and e["round"] == 1]
    assert len(rounds) >= 2 and rounds[0][1].get("redeal"), "seed 3 redeals round 1"
    page = open_page(page_path)
    page.select_option("#round-select", "1")
    assert counter(page) == f"move {rounds[0][0]} / {len(events) - 1}"
    assert "redealt" in page.text_content("#event-text")
    played_at, played = rounds[-1]
    for _ in range(played_at - rounds[0][0]):
        page.keyboard.press("ArrowRight")
    for seat, hand in enumerate(played["hands"]):
        shown = page.eval_on_selector_all(f'#hands .hand[data-seat="{seat}"] .tile', "els => els.map(e => e.dataset.tile)")
        assert sorted(shown) == sorted(hand)
    # The engine comes from a hand: its event takes the tile from the placer's hand.
    engine_at = next(i for i, e in enumerate(events) if e["event"] == "engine")
    page.evaluate(f"() => {{ for (let i = 0; i < {engine_at - played_at}; i++) document.getElementById('next').click(); }}")
    assert events[engine_at]["tile"] in page.text_content("#engine-text")
    assert hand_sizes(page) == [len(h) for h in replay(events, engine_at)["hands"]]


def test_branches_are_drawn_under_their_train(logs, open_page):
    _, page_path, events = logs["branching"]
    at = next(i for i, e in enumerate(events) if e["event"] == "branch")
    ev = events[at]
    page = open_page(page_path)
    page.evaluate(f"() => {{ for (let i = 0; i < {at}; i++) document.getElementById('next').click(); }}")
    for b in ev["branches"]:
        row = page.locator(f'#trains .train.branch[data-train="{b}"]')
        assert row.count() == 1
        assert int(row.get_attribute("data-end")) == ev["value"]
        assert f"off the {ev['value']}-{ev['value']}" in row.text_content()
    # Branch rows follow their root train's row.
    order = page.eval_on_selector_all("#trains .train", "els => els.map(e => e.dataset.train)")
    root = str(ev["root"])
    assert order.index(ev["branches"][0]) > order.index(root)


def test_a_review_annotation_and_the_mistake_marks(logs, open_page, mtrain, tmp_path):
    log, _, events = logs["wikipedia"]
    plays = [i for i, e in enumerate(events) if e["event"] == "play"]
    bad, good = plays[10], plays[20]
    header = "game,round,decision,seat,line,kind,moves,played,best,played_points,best_points,loss,loss_lo,loss_hi,played_win,best_win,mistake,worlds"
    e_bad, e_good = events[bad], events[good]
    csv = tmp_path / "review.csv"
    csv.write_text(
        header + "\n"
        f"0,1,11,{e_bad['seat']},{bad + 1},play,5,{key(e_bad['tile'])} on {e_bad['train']},12-3 on 2,-4.5,1.25,5.75,2.5,9,0.1,0.35,true,128\n"
        f"0,1,21,{e_good['seat']},{good + 1},play,3,{key(e_good['tile'])} on {e_good['train']},{key(e_good['tile'])} on {e_good['train']},1,1,0,0,0,0.5,0.5,false,128\n"
    )
    out = tmp_path / "reviewed.html"
    run(mtrain, "view", log, "--review", csv, "--out", out)
    page = open_page(out)
    # One mistake: one mark on the timeline and one in the move list of its round.
    assert page.eval_on_selector_all("#marks .tl-mistake", "els => els.map(e => Number(e.dataset.move))") == [bad]
    assert page.is_hidden("#review")
    page.click("#marks .tl-mistake")
    assert counter(page) == f"move {bad} / {len(events) - 1}"
    assert page.is_visible("#review")
    assert "mistake" in page.get_attribute("#review", "class")
    text = page.text_content("#review")
    assert "Mistake" in text
    assert "12-3 on seat 2's train" == page.text_content("#review .best")
    assert "Loss 5.75 points (95% joint interval 2.50 to 9.00)" in text
    assert "round win 10.0% played, 35.0% best" in text
    assert page.eval_on_selector_all("#moves li.mistake", "els => els.map(e => Number(e.dataset.move))") == [bad]
    assert page.get_attribute("#moves li.current", "data-move") == str(bad)
    # The next move has no review; the good one shows without a mistake mark.
    page.keyboard.press("ArrowRight")
    assert page.is_hidden("#review")
    page.evaluate(f"() => {{ for (let i = 0; i < {good - bad - 1}; i++) document.getElementById('next').click(); }}")
    assert counter(page) == f"move {good} / {len(events) - 1}"
    assert page.is_visible("#review")
    assert "mistake" not in (page.get_attribute("#review", "class") or "")
    assert "Best move" in page.text_content("#review")


@pytest.mark.parametrize("name", ["wikipedia", "branching", "six_players"])
def test_nothing_overflows_at_phone_width(logs, open_page, name):
    _, page_path, events = logs[name]
    page = open_page(page_path, width=390, height=844)
    wide = "() => document.documentElement.scrollWidth"
    assert page.evaluate(wide) <= 390
    for target in (len(events) // 3, len(events) // 2, len(events) - 1):
        page.evaluate(f"() => {{ while (Number(document.body.dataset.move) < {target}) document.getElementById('next').click(); }}")
        assert page.evaluate(wide) <= 390, f"overflow at move {target}"
        # Every element stays inside the viewport's width.
        over = page.evaluate(
            "() => [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect();"
            " return r.width > 0 && r.right > window.innerWidth + 0.5 && !e.closest('.table-wrap'); }).length"
        )
        assert over == 0


@pytest.mark.parametrize("name", list(LOGS))
def test_every_log_steps_to_the_end_in_agreement_with_the_log(logs, open_page, name):
    _, page_path, events = logs[name]
    last = len(events) - 1
    page = open_page(page_path)
    # Step with the button through every move; at each round's end note the hands and scores.
    seen = page.evaluate(
        """() => {
            const out = { ends: [], problems: [] };
            const next = document.getElementById('next');
            while (!next.disabled) {
                next.click();
                const text = document.getElementById('event-text').textContent;
                if (text.includes('log inconsistency')) out.problems.push(text);
                if (text.startsWith('Round over')) {
                    out.ends.push({
                        move: Number(document.body.dataset.move),
                        hands: [...document.querySelectorAll('#hands .hand')].map(h => Number(h.dataset.count)),
                    });
                }
            }
            return out;
        }"""
    )
    assert counter(page) == f"move {last} / {last}"
    assert seen["problems"] == []
    ends = [i for i, e in enumerate(events) if e["event"] == "round_end"]
    assert [e["move"] for e in seen["ends"]] == ends
    for e in seen["ends"]:
        assert e["hands"] == [len(h) for h in replay(events, e["move"])["hands"]]
    totals = page.eval_on_selector_all("#scores td[data-total-seat]", "els => els.map(e => Number(e.textContent))")
    assert totals == events[-1]["totals"]


def test_a_big_seed_is_shown_exactly(mtrain, open_page, tmp_path):
    log = tmp_path / "big.jsonl"
    seed = "18446744073709551557"
    run(mtrain, "play", "--players", "2", "--set", "6", "--rounds", "1", "--seed", seed, "--log", log)
    run(mtrain, "view", log)
    page = open_page(tmp_path / "big.html")
    assert page.text_content('#facts [data-fact="seed"] dd') == seed
    assert seed in page.title()


def test_the_review_of_mtrain_analyze_shows_its_mistakes(mtrain, open_page, tmp_path):
    """With the real `mtrain analyze --review` CSV: every mistake row is marked at its line."""
    helped = subprocess.run([str(mtrain), "analyze", "--help"], capture_output=True, text=True)
    if helped.returncode != 0 or "--review" not in helped.stdout:
        pytest.skip("this mtrain has no `analyze --review`")
    log, csv = tmp_path / "g.jsonl", tmp_path / "review.csv"
    run(mtrain, "play", "--players", "2", "--set", "6", "--rounds", "2", "--seed", "7", "--log", log)
    run(mtrain, "analyze", "--log", log, "--review", "--csv", csv)
    import csv as csvlib

    with open(csv, newline="") as f:
        rows = list(csvlib.DictReader(f))
    assert rows
    mistakes = sorted(int(r["line"]) - 1 for r in rows if r["mistake"] == "true")
    run(mtrain, "view", log, "--review", csv)
    page = open_page(tmp_path / "g.html")
    assert page.eval_on_selector_all("#marks .tl-mistake", "els => els.map(e => Number(e.dataset.move))") == mistakes
    for r in rows[:6]:
        page.evaluate(f"() => {{ while (Number(document.body.dataset.move) !== {int(r['line']) - 1}) document.getElementById(Number(document.body.dataset.move) < {int(r['line']) - 1} ? 'next' : 'prev').click(); }}")
        assert page.is_visible("#review")
        text = page.text_content("#review")
        assert ("\u2716" in text) == (r["mistake"] == "true")
        # The grade is named: a flagged blunder or mistake, or an inaccuracy.
        if r["grade"] in ("blunder", "mistake", "inaccuracy"):
            assert r["grade"].capitalize() in text, text
