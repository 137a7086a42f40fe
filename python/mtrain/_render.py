"""The board of an :class:`mtrain.State` as text and as HTML: what :meth:`mtrain.State.render`,
``State._repr_html_`` and the environments' ``render()`` show. Everything comes from the
state's public methods as one seat sees it (its hand, the public trains and counts, the events
of the round in play), so a render never shows another seat's hidden tiles.
"""

from __future__ import annotations

import html as _html
from typing import Dict, List, Optional


def _train_label(train) -> str:
    """A train's id as the board names it: ``seat 2``, ``Mexican``, ``Mexican 2``, ``branch 1``."""
    t = str(train)
    if t.isdigit():
        return f"seat {t}"
    if t == "mexican":
        return "Mexican"
    if t.startswith("mexican"):
        return f"Mexican {t[7:]}"
    if t.startswith("branch"):
        return f"branch {t[6:]}"
    return t


def _laid_tiles(events) -> Dict[str, List[str]]:
    """The tiles laid on each train this round, in order, oriented as played (from the open end
    they joined to the train's new open end), from the round's public play events."""
    laid: Dict[str, List[str]] = {}
    for e in events:
        if e.get("event") != "play" or "train" not in e:
            continue
        a, b = (int(x) for x in str(e["tile"]).split("-"))
        end = int(e["end"])
        joined = a if b == end else b
        laid.setdefault(str(e["train"]), []).append(f"{joined}-{end}")
    return laid


def board(state, player: Optional[int]) -> dict:
    """What a render shows, as data: ``over``, ``round``, ``to_act``, ``scores``, and while the
    match is in play ``seat`` (the seat whose view it is), ``engine``, ``boneyard``, ``hands``
    (each seat's tile count), ``hand`` (the seat's tiles), ``trains`` (one dict per train:
    ``name``, ``owner``, ``tiles`` (the tiles laid, as far as the round's events tell: the last
    ones when the state did not see the first plays), ``earlier`` (how many tiles laid before
    those), ``count``, ``end``, ``open_double``, ``marked``), ``owed`` and ``moves`` (the seat's
    legal moves, numbered, when it is to act)."""
    out = {
        "over": state.is_terminal(),
        "round": state.round(),
        "to_act": None if state.is_terminal() else state.current_player(),
        "scores": list(state.scores()),
    }
    if out["over"]:
        returns = state.returns()
        n = len(returns)
        out["winners"] = [s for s, r in enumerate(returns) if r > -1.0 / n + 1e-9]
        return out
    seat = out["to_act"] if player is None else int(player)
    obs = state.observation(seat)
    laid = _laid_tiles(obs.get("events", []))
    trains = []
    for t in obs["trains"]:
        name = str(t["train"])
        tiles = laid.get(name, [])[-t["tiles"] :] if t["tiles"] else []
        trains.append(
            {
                "name": _train_label(name),
                "owner": int(name) if name.isdigit() else None,
                "tiles": tiles,
                "earlier": t["tiles"] - len(tiles),
                "count": t["tiles"],
                "end": t["end"],
                "open_double": t["open_double"],
                "marked": t["marked"],
            }
        )
    moves = []
    for action, move in zip(obs.get("actions", []), obs.get("moves", [])):
        moves.append((action, state.action_to_string(action)))
    out.update(
        {
            "seat": seat,
            "engine": state._engine(),
            "boneyard": obs["boneyard"],
            "hands": list(obs["hands"]),
            "hand": list(obs["hand"]),
            "trains": trains,
            "owed": obs.get("owed", []),
            "moves": moves,
        }
    )
    return out


def _earlier(n: int) -> str:
    """Tiles laid before the events a state has seen (those of a match dealt without them)."""
    return f"({n} tile{'s' if n != 1 else ''})"


def _train_text(t: dict) -> str:
    if t["count"] == 0:
        laid = "(not started)"
    else:
        laid = " ".join(([_earlier(t["earlier"])] if t["earlier"] else []) + t["tiles"])
    notes = [f"open end {t['end']}"]
    if t["open_double"]:
        notes.append("open double")
    if t["marked"]:
        notes.append("marker")
    return f"{laid}  [{', '.join(notes)}]"


def text(state, player: Optional[int] = None) -> str:
    """The board as text from ``player``'s seat (default: the seat to act)."""
    b = board(state, player)
    scores = "  ".join(f"seat {s}: {v}" for s, v in enumerate(b["scores"]))
    if b["over"]:
        winners = ", ".join(f"seat {s}" for s in b["winners"])
        return f"Match over after round {b['round']}\nScores (lower is better): {scores}\nWinner(s): {winners}\n"
    seat = b["seat"]
    lines = [
        f"Round {b['round']} · engine {b['engine']} · seat {b['to_act']} to act · boneyard {b['boneyard']}"
        f" · view of seat {seat}",
    ]
    width = max(len(t["name"]) for t in b["trains"])
    for t in b["trains"]:
        if t["owner"] is not None:
            who = t["owner"]
            head = f"{t['name']:<{width}}  hand {b['hands'][who]:>2}  score {b['scores'][who]:>3}"
        else:
            head = f"{t['name']:<{width}}  {'':<7}  {'':<9}"
        lines.append(f"{head}  {_train_text(t)}")
    if b["owed"]:
        lines.append(f"Owed: {b['owed']}")
    lines.append(f"Hand of seat {seat} ({len(b['hand'])} tiles): {' '.join(b['hand'])}")
    if b["moves"]:
        lines.append("Legal: " + ", ".join(f"{a}: {m}" for a, m in b["moves"]))
    return "\n".join(lines) + "\n"


_STYLE = (
    "font-family:system-ui,sans-serif;font-size:13px;line-height:1.6;"
    "border:1px solid #ccc;border-radius:6px;padding:8px;display:inline-block"
)
_TILE = (
    "display:inline-block;border:1px solid #555;border-radius:3px;padding:0 4px;margin:1px;"
    "font-family:monospace;background:#fffdf5"
)


def _tiles_html(tiles: List[str]) -> str:
    return "".join(f'<span style="{_TILE}">{_html.escape(t)}</span>' for t in tiles)


def html_board(state, player: Optional[int] = None) -> str:
    """The board as a self-contained HTML fragment (inline styles, no script)."""
    b = board(state, player)
    esc = _html.escape
    scores = " · ".join(f"seat {s}: {v}" for s, v in enumerate(b["scores"]))
    if b["over"]:
        winners = ", ".join(f"seat {s}" for s in b["winners"])
        return (
            f'<div class="mtrain-board" style="{_STYLE}"><b>Match over</b> after round {b["round"]}<br>'
            f"Scores (lower is better): {esc(scores)}<br>Winner(s): {esc(winners)}</div>"
        )
    rows = []
    for t in b["trains"]:
        who = t["owner"]
        info = f"hand {b['hands'][who]} · score {b['scores'][who]}" if who is not None else ""
        laid = (_earlier(t["earlier"]) + " " if t["earlier"] else "") + _tiles_html(t["tiles"])
        laid = laid if t["count"] else "not started"
        notes = [f"open end {t['end']}"] + (["open double"] if t["open_double"] else [])
        marker = ' <span title="marker" style="color:#c00">&#9873;</span>' if t["marked"] else ""
        acting = ' style="background:#eef6ff"' if who is not None and who == b["to_act"] else ""
        cell = '<td style="padding:2px 6px;white-space:nowrap;vertical-align:top">'
        rows.append(
            f"<tr{acting}>{cell}<b>{esc(t['name'])}</b>{marker}</td>{cell}{esc(info)}</td>"
            f'<td style="padding:2px 6px">{laid}</td>{cell}{esc(", ".join(notes))}</td></tr>'
        )
    moves = ""
    if b["moves"]:
        moves = "<div>Legal: " + esc(", ".join(f"{a}: {m}" for a, m in b["moves"])) + "</div>"
    return (
        f'<div class="mtrain-board" style="{_STYLE}">'
        f"<div>Round {b['round']} · engine {_tiles_html([b['engine']])} · <b>seat {b['to_act']}</b> to act"
        f" · boneyard {b['boneyard']} · view of seat {b['seat']}</div>"
        f'<table style="border-collapse:collapse">{"".join(rows)}</table>'
        f"<div>Hand of seat {b['seat']}: {_tiles_html(b['hand'])}</div>{moves}</div>"
    )


def html(state, player: Optional[int] = None) -> str:
    """:func:`html_board`: the name ``State._repr_html_`` calls."""
    return html_board(state, player)
