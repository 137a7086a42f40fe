#!/usr/bin/env python3
"""Independent referee for mtrain JSONL game logs (rules presets `wikipedia` and `harbour_cay`).

Usage: scripts/checks/referee.py LOG.jsonl

LOG.jsonl holds one match (`mtrain play --log`) or several one after another (the files of
`mtrain tournament --log-games`); each is refereed in turn.

Replays a match from its full-information log (format: docs/log-format.md) and checks every event
against the rules of the `wikipedia` preset (docs/rules.md). Written from the rules text alone, not from the engine's
source, so that the two implementations check each other.

The referee never judges a *choice* among several legal moves (that is the bot's business). It
does check that a move is legal, that a move was made whenever one was possible (must-play), and
that every forced action (draw, play of a drawn tile, follow-up, mark, unmark, pass, round end,
scores, totals, winners) is exactly what the rules require.

What is checked, per round (engine [e|e] set aside, first seat (r - 1) mod N, turns clockwise):
- the deal: N hands of `hand` tiles + boneyard + engine = the full double-M set, once each;
- a turn with an uncovered, obligated double: the seat covers it (a hand tile if it holds one;
  otherwise it draws the boneyard's next tile and plays it on the double if it fits), else marks;
- a normal turn: targets are the own train in the seat's first turn of the round, later
  also the Mexican train (started with a tile containing e) and other seats' marked trains; a
  seat with a legal play must play; otherwise it draws the next tile and must play it if it is
  playable, else marks; with an empty boneyard it marks, or passes if its marker is already on;
- a double: no cover needed if no unplayed tile shows its value (last-of-suit); otherwise the
  doubler covers it on the same train from hand, or draws once more and covers with the drawn
  tile, or marks (wherever the double lies), and the double obliges the next seats;
- tiles are written joined half first and `end` is the new open end; `unmark` follows exactly
  the plays of an owner on his own marked train; `mark` only when the turn fails and the marker
  is off; `pass` exactly for an idle turn; nothing else in a turn;
- the round ends exactly when a hand empties or after N consecutive idle turns with an empty
  boneyard; scores are the pips left in each hand; totals add up; winners per the Encyclopedia
  tie-break (most zero rounds, then lowest non-zero round score, else co-winners).

`harbour_cay` (Great Harbour Cay rules) differs as follows:
- the deal is the whole set; a deal in which no hand shows e is redealt: its `round` event
  carries "redeal": true and no `first`, and the `round` event repeats with the same number;
- the engine is [e|e] if dealt, else the [e|w] with the largest w held; its holder places it
  (`engine` event, written e first) and takes the first turn;
- the Mexican train may be started only by a seat that has played on its own train; other
  seats' marked trains are open to a seat only from its second turn; a seat in its first turn
  owing a cover on another seat's train draws one tile, keeps it, and marks;
- no last-of-suit exemption: the round ends "stuck" as soon as a placement leaves the table
  certain to stay unplayable: a double that needs cover and no unplayed tile of its value, or
  no unplayed tile for any open end (own trains, the Mexican train or e while it is unstarted);
- the double-blank scores 50; ties are shared (co-winners).

Rule options (the `match` event's `options`; any other option is refused):
- `tap=draw_two` (either preset): a seat that placed a tile in its turn and ends it holding one
  tile has not announced it; at the start of the next seat's turn it draws min(2, boneyard) tiles
  from the front of the boneyard (a `penalty` event without `reason`). `tap=always_announced`
  is the default (no penalty).
- `tap_forget=P`, `tap_catch=Q` (decimals 0..1, at most six decimals; default 1): with `draw_two`
  and P or Q below 1, every such last tile is judged where its penalty would fall by a `tap`
  event whose `forgot` and `caught` must be the coins recomputed from the match seed
  (docs/log-format.md, `tap`), and the penalty follows exactly when both are true.
- `uncovered_double_penalty=N` (0..4): a turn that ends with the double its seat placed still
  uncovered and needing cover (not exempt as the last of its suit) closes with a `penalty`
  event `"reason":"uncovered_double"` drawing min(N, boneyard) tiles from the front of the
  boneyard (before the last-tile test above, so the drawn tiles count).

Output: `OK: <rounds> rounds, <events> events refereed` and exit 0, or on the first violation
`ILLEGAL line N: <reason>` and exit 1 (exit 2: usage error or unreadable file). Standard library
only.
"""

import json
import sys

SETS = (6, 9, 12, 15, 18)
MASK = (1 << 64) - 1
OPTIONS = ("tap", "tap_forget", "tap_catch", "uncovered_double_penalty")
MEX = "mexican"
PRESETS = ("wikipedia", "harbour_cay")


class CannotRead(Exception):
    pass


class Illegal(Exception):
    def __init__(self, line, reason):
        super().__init__(reason)
        self.line = line
        self.reason = reason


# ---------------------------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------------------------


def parse_tile(text, m, line, what="tile"):
    """'a-b' -> (a, b) as written (order kept). Both halves must lie in 0..m."""
    if not isinstance(text, str):
        raise Illegal(line, f"{what} {text!r} is not a string 'a-b'")
    parts = text.split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise Illegal(line, f"malformed {what} {text!r} (expected 'a-b')")
    a, b = int(parts[0]), int(parts[1])
    if a > m or b > m:
        raise Illegal(line, f"{what} {text!r} is not in the double-{m} set")
    return a, b


def key(a, b):
    """Canonical identity of a tile: (low, high)."""
    return (a, b) if a <= b else (b, a)


def show(t):
    return f"{t[0]}-{t[1]}"


def pips(t):
    return t[0] + t[1]


def train_name(k):
    return "the Mexican train" if k == MEX else f"train {k}"


# ---------------------------------------------------------------------------------------------
# Options and the last-tile coins (docs/log-format.md, `tap`)
# ---------------------------------------------------------------------------------------------


def splitmix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def mix(seed, i):
    return splitmix64((seed + 0x9E3779B97F4A7C15 * (i + 1)) & MASK)


def coin(u, millionths):
    """Whether the 64-bit coin u comes up for a probability given in millionths."""
    return ((u >> 32) * 1000000) >> 32 < millionths


def probability(text, name, line):
    """'0.25' -> 250000 (millionths): a decimal from 0 to 1 with at most six decimals."""
    whole, _, frac = str(text).partition(".")
    ok = (whole or frac) and all(c.isdigit() for c in whole + frac) and len(frac) <= 6
    value = int(whole or "0") * 1000000 + int((frac + "000000")[:6]) if ok else None
    if value is None or value > 1000000:
        raise Illegal(line, f"option {name}={text!r} is not a probability from 0 to 1 with at most 6 decimals")
    return value


class Options:
    """The rule options this referee plays, from the match event."""

    def __init__(self, opts, seed, line):
        if not isinstance(opts, dict):
            raise Illegal(line, f"options {opts!r} must be an object")
        other = sorted(k for k in opts if k not in OPTIONS)
        if other:
            raise Illegal(line, f"rule options {other} are not supported by this referee (it plays {', '.join(OPTIONS)})")
        tap = opts.get("tap", "always_announced")
        if tap not in ("always_announced", "draw_two"):
            raise Illegal(line, f"option tap={tap!r} is not supported by this referee (always_announced, draw_two)")
        self.tap = tap == "draw_two"
        self.forget = probability(opts.get("tap_forget", "1"), "tap_forget", line)
        self.catch = probability(opts.get("tap_catch", "1"), "tap_catch", line)
        self.coins = self.tap and (self.forget < 1000000 or self.catch < 1000000)
        n = str(opts.get("uncovered_double_penalty", "0"))
        if not n.isdigit() or int(n) > 4:
            raise Illegal(line, f"option uncovered_double_penalty={n!r} is not a whole number from 0 to 4")
        self.double_penalty = int(n)
        self.seed = seed


# ---------------------------------------------------------------------------------------------
# Event stream
# ---------------------------------------------------------------------------------------------


class Stream:
    def __init__(self, events, eof_line):
        self.events = events  # list of (line number, dict)
        self.i = 0
        self.eof_line = eof_line

    def peek(self):
        return self.events[self.i] if self.i < len(self.events) else (self.eof_line, None)

    def take(self, wanted):
        line, ev = self.peek()
        if ev is None:
            raise Illegal(line, f"log ends early: expected {wanted}")
        self.i += 1
        return line, ev


def describe(ev):
    if ev is None:
        return "end of log"
    kind = ev.get("event")
    if kind == "play":
        return f"play by seat {ev.get('seat')} of {ev.get('tile')} on {ev.get('train')}"
    if kind in ("draw",):
        return f"draw by seat {ev.get('seat')} of {ev.get('tile')}"
    if kind in ("mark", "unmark", "pass"):
        return f"{kind} by seat {ev.get('seat')}"
    return f"'{kind}' event"


def need(ev, line, name, types, what=None):
    if name not in ev:
        raise Illegal(line, f"'{ev.get('event')}' event lacks field '{name}'")
    v = ev[name]
    if isinstance(v, bool) or not isinstance(v, types):
        raise Illegal(line, f"field '{name}' has the wrong type: {v!r}")
    return v


def int_list(ev, line, name, n):
    v = need(ev, line, name, list)
    if len(v) != n or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
        raise Illegal(line, f"field '{name}' must be a list of {n} integers, got {v!r}")
    return v


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------


class Round:
    def __init__(self, stream, m, n, e, first, hands, boneyard, hc=False, opts=None, r=1):
        self.s = stream
        self.opts = opts
        self.tap_due = None  # the seat that ended its last turn on one tile (tap=draw_two)
        self.taps = 0  # last tiles judged by the coins so far this round
        self.coin_seed = mix(opts.seed, (11 << 32) + r) if opts is not None else 0
        self.hc = hc  # harbour_cay rules
        self.played_own = [False] * n
        self.m = m
        self.n = n
        self.e = e
        self.first = first
        self.hands = hands  # list of sets of canonical tiles
        self.boneyard = boneyard  # list of canonical tiles, index 0 drawn first
        self.ends = [e] * n  # open end of each personal train (e while unstarted)
        self.mex_end = None  # None until the Mexican train is started
        self.marker = [False] * n
        self.pending = None  # (train key, v): the uncovered double that obliges everyone
        self.turns_taken = [0] * n
        self.idle = 0
        self.events = 0
        # per-turn bookkeeping
        self.turn_double = None  # the double placed this turn: {train, v, covered, exempt}
        self.turn_changed = False
        self.turn_placed = False
        self.ended = None  # ("out", seat) or ("blocked", None)

    # --- helpers --------------------------------------------------------------------------

    def end_of(self, k):
        if k == MEX:
            return self.e if self.mex_end is None else self.mex_end
        return self.ends[k]

    def unplayed(self, v):
        """Tiles containing v that are not on the table (in some hand or the boneyard)."""
        c = sum(1 for h in self.hands for t in h if v in t)
        return c + sum(1 for t in self.boneyard if v in t)

    def normal_targets(self, p):
        if self.hc:
            # Great Harbour Cay: the Mexican train once started, or to start it after an own-train play;
            # other seats' marked trains from the second turn on
            ts = [p]
            if self.mex_end is not None or self.played_own[p]:
                ts.append(MEX)
            if self.turns_taken[p] >= 1:
                ts += [q for q in range(self.n) if q != p and self.marker[q]]
            return ts
        if self.turns_taken[p] == 0:
            return [p]  # ED-27: the first turn of a round is the opening move, own train only
        ts = [p, MEX]  # the Mexican train, or starting it (its open end is e until started)
        ts += [q for q in range(self.n) if q != p and self.marker[q]]
        return ts

    def options(self, tiles, targets):
        return [(t, k) for t in sorted(tiles) for k in targets if self.end_of(k) in t]

    def example(self, opts):
        t, k = opts[0]
        return f"{show(t)} on {train_name(k)}"

    def turn_event(self, p, wanted, why=None):
        """Next event must be an action (play/draw/mark/pass) of seat p."""
        wanted = f"{wanted} by seat {p}" + (f" ({why})" if why else "")
        line, ev = self.s.peek()
        if ev is None:
            raise Illegal(line, f"log ends early: expected {wanted}")
        kind = ev.get("event")
        if kind not in ("play", "draw", "mark", "unmark", "pass"):
            if kind == "round_end":
                raise Illegal(line, f"round ends too early: expected {wanted}; {self.why_not_over()}")
            raise Illegal(line, f"expected {wanted}, got {describe(ev)}")
        seat = need(ev, line, "seat", int)
        if seat != p:
            raise Illegal(line, f"expected {wanted}, got {describe(ev)}")
        self.s.i += 1
        self.events += 1
        return line, ev, kind

    def stuck(self):
        """harbour_cay: the table can never be played on again (checked after each placement)."""
        v = None
        if self.pending is not None:
            v = self.pending[1]
        elif self.turn_double is not None and not self.turn_double["covered"]:
            v = self.turn_double["v"]
        if v is not None:
            return self.unplayed(v) == 0  # the double can never be covered
        ends = set(self.ends) | {self.e if self.mex_end is None else self.mex_end}
        return all(self.unplayed(x) == 0 for x in ends)

    def score(self, hand):
        return sum(50 if self.hc and t == (0, 0) else pips(t) for t in hand)

    def why_not_over(self):
        nonempty = all(self.hands)
        if not nonempty:
            return "a hand is empty"  # cannot happen: we end the round at once
        if self.boneyard:
            return f"no hand is empty and the boneyard still holds {len(self.boneyard)} tiles"
        return f"no hand is empty and only {self.idle} consecutive idle turns with an empty boneyard (need {self.n})"

    # --- primitives -----------------------------------------------------------------------

    def check_play(self, p, line, ev, only_tile, targets, context):
        """Validate a play event; return (tile, train key, new open end).

        `only_tile` is the drawn tile when only it may be played (else None); `targets` are the
        trains seat p may play on now; `context` explains that restriction in error messages.
        """
        x, y = parse_tile(ev.get("tile"), self.m, line)
        t = key(x, y)
        if t not in self.hands[p]:
            raise Illegal(line, f"tile {show(t)} is not in seat {p}'s hand")
        if only_tile is not None and t != only_tile:
            raise Illegal(line, f"seat {p} must play the drawn tile {show(only_tile)}, not {show(t)}")
        k = ev.get("train")
        if k != MEX and (isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.n):
            raise Illegal(line, f"invalid train {k!r}")
        if k not in targets:
            if isinstance(k, int) and k != p and not self.marker[k] and self.turns_taken[p] > 0 and self.pending is None \
                    and self.turn_double is None:
                raise Illegal(line, f"seat {p} may not play on train {k}: it is private (no marker on it)")
            raise Illegal(line, f"seat {p} may not play on {train_name(k)}: {context}")
        v = self.end_of(k)
        if x != v:
            if y == v:
                raise Illegal(line, f"tile {ev.get('tile')} written the wrong way round ({train_name(k)} ends in {v})")
            raise Illegal(line, f"tile {show(t)} does not fit {train_name(k)} (open end {v})")
        end = need(ev, line, "end", int)
        if end != y:
            raise Illegal(line, f"play of {ev.get('tile')} on {train_name(k)} leaves open end {y}, log says {end}")
        return t, k, y

    def place(self, p, line, t, k, y):
        """PLACE: apply a checked placement; handles covering, unmark, going out."""
        self.hands[p].discard(t)
        if k == MEX:
            self.mex_end = y
        else:
            self.ends[k] = y
        if k == p:
            self.played_own[p] = True
        self.turn_changed = True
        self.turn_placed = True
        if self.pending is not None and self.pending[0] == k:
            self.pending = None  # the obligation is covered
        if self.turn_double is not None and self.turn_double["train"] == k:
            self.turn_double["covered"] = True
        if t[0] == t[1]:
            self.turn_double = {"train": k, "v": t[0], "covered": False, "exempt": False}
        # marker removal: OwnerOnOwnTrain (immediately after the play, before a possible round end)
        nl, nev = self.s.peek()
        if k == p and self.marker[p]:
            if nev is None or nev.get("event") != "unmark" or nev.get("seat") != p:
                raise Illegal(nl, f"seat {p} played on its own marked train (line {line}): expected unmark of seat {p}, got {describe(nev)}")
            self.s.i += 1
            self.events += 1
            self.marker[p] = False
        elif nev is not None and nev.get("event") == "unmark":
            s = nev.get("seat")
            if isinstance(s, int) and 0 <= s < self.n and not self.marker[s]:
                raise Illegal(nl, f"unmark of seat {s} whose marker is not on")
            raise Illegal(nl, f"unmark of seat {s} after a play on {train_name(k)} by seat {p}: only the owner's play on his own train removes a marker")
        if not self.hands[p]:
            self.ended = ("out", p)
            return True
        if self.hc and self.stuck():
            self.ended = ("stuck", None)
            return True
        return False

    def play(self, p, wanted, only_tile, targets, context, must_play_hint):
        """Consume one event that must be a play within the given constraints."""
        line, ev, kind = self.turn_event(p, wanted, must_play_hint)
        if kind != "play":
            if kind == "unmark":
                raise Illegal(line, f"unmark of seat {ev.get('seat')} without a play on its own train")
            raise Illegal(line, f"{kind} by seat {p}, but {must_play_hint}")
        t, k, y = self.check_play(p, line, ev, only_tile, targets, context)
        return t, k, self.place(p, line, t, k, y)

    def draw(self, p, why):
        line, ev, kind = self.turn_event(p, "a draw", why)
        if kind != "draw":
            if kind == "unmark":
                raise Illegal(line, f"unmark of seat {ev.get('seat')} without a play on its own train")
            raise Illegal(line, f"{kind} by seat {p}, but {why} and the boneyard is not empty: seat {p} must draw")
        x, y = parse_tile(ev.get("tile"), self.m, line)
        t = key(x, y)
        if t != self.boneyard[0]:
            raise Illegal(line, f"seat {p} drew {show(t)}, but the next boneyard tile is {show(self.boneyard[0])}")
        self.boneyard.pop(0)
        self.hands[p].add(t)
        self.turn_changed = True
        return t

    def fail(self, p, why):
        """End of a failed turn: MARK (logged only if the marker was off), or pass if nothing happened."""
        if not self.marker[p]:
            line, ev, kind = self.turn_event(p, "a mark", why)
            if kind != "mark":
                if kind == "pass":
                    raise Illegal(line, f"pass by seat {p}, but {why}: its marker must go on (it is off)")
                if kind == "unmark":
                    raise Illegal(line, f"unmark of seat {ev.get('seat')} without a play on its own train")
                raise Illegal(line, f"{describe(ev)}, but {why}: seat {p} must mark its train")
            self.marker[p] = True
            self.turn_changed = True
        elif not self.turn_changed:
            line, ev, kind = self.turn_event(p, "a pass", why)
            if kind != "pass":
                if kind == "mark":
                    raise Illegal(line, f"mark by seat {p} whose marker is already on")
                raise Illegal(line, f"{describe(ev)}, but {why}: seat {p} has an idle turn (pass)")

    # --- penalties (rule options) -----------------------------------------------------------

    def penalty(self, q, k, reason, why):
        """The next event must be a penalty of seat q drawing min(k, boneyard) tiles, with `reason`."""
        line, ev = self.s.peek()
        if ev is None or ev.get("event") != "penalty":
            raise Illegal(line, f"expected a penalty of seat {q} ({why}), got {describe(ev)}")
        self.s.i += 1
        self.events += 1
        if need(ev, line, "seat", int) != q:
            raise Illegal(line, f"penalty of seat {ev['seat']}, expected seat {q} ({why})")
        if ev.get("reason") != reason:
            raise Illegal(line, f"penalty reason {ev.get('reason')!r}, expected {reason!r} ({why})")
        tiles = [key(*parse_tile(x, self.m, line)) for x in need(ev, line, "tiles", list)]
        want = self.boneyard[:k]
        if tiles != want:
            raise Illegal(line, f"seat {q} must draw {' '.join(show(t) for t in want) or 'nothing'} "
                                f"(min({k}, boneyard) from its front; {why}), log says {' '.join(show(t) for t in tiles) or 'nothing'}")
        del self.boneyard[:k]
        self.hands[q].update(tiles)
        if tiles:
            self.idle = 0

    def last_tile_due(self):
        """tap=draw_two: at the start of a turn, the previous seat's unannounced last tile."""
        q, self.tap_due = self.tap_due, None
        if q is None:
            return
        if self.opts.coins:
            line, ev = self.s.peek()
            if ev is None or ev.get("event") != "tap":
                raise Illegal(line, f"seat {q} ended its turn with one tile: expected its tap event, got {describe(ev)}")
            self.s.i += 1
            self.events += 1
            if need(ev, line, "seat", int) != q:
                raise Illegal(line, f"tap of seat {ev['seat']}, expected seat {q} (it ended its turn with one tile)")
            k = self.taps
            self.taps += 1
            forgot = coin(mix(self.coin_seed, 2 * k), self.opts.forget)
            caught = forgot and coin(mix(self.coin_seed, 2 * k + 1), self.opts.catch)
            for name, want in (("forgot", forgot), ("caught", caught)):
                if ev.get(name) is not want:
                    raise Illegal(line, f"tap {name}={ev.get(name)!r}, but coin {k} of the round's seed says {want}")
            if not caught:
                return
        self.penalty(q, 2, None, f"seat {q} did not announce its last tile")

    # --- turns ----------------------------------------------------------------------------

    def turn(self, p):
        if self.opts is not None and self.opts.tap:
            self.last_tile_due()
        self.turn_double = None
        self.turn_changed = False
        self.turn_placed = False
        if self.pending is not None:
            self.obligated(p)
        else:
            self.normal(p)
        if self.ended:
            return
        # END: obligation creation, turn count, idle count, blocked test
        d = self.turn_double
        if d is not None and not d["covered"] and not d["exempt"]:
            self.pending = (d["train"], d["v"])
            if self.opts is not None and self.opts.double_penalty:
                self.penalty(p, self.opts.double_penalty, "uncovered_double",
                             f"its turn left the double {d['v']}-{d['v']} uncovered")
        if self.opts is not None and self.opts.tap and self.turn_placed and len(self.hands[p]) == 1:
            self.tap_due = p
        self.turns_taken[p] += 1
        self.idle = 0 if self.turn_changed else self.idle + 1
        if not self.boneyard and self.idle >= self.n:
            self.ended = ("blocked", None)

    def obligated(self, p):
        k, v = self.pending
        if self.hc and k != MEX and k != p and self.turns_taken[p] == 0:
            # a first turn may not play on another seat's train, even to cover: draw, keep, mark
            why = f"in its first turn it may not cover {v}-{v} on {train_name(k)}"
            if self.boneyard:
                self.draw(p, why)
            self.fail(p, why + " (it draws one tile, keeps it and marks)")
            return
        ctx = f"the double {v}-{v} on {train_name(k)} is uncovered and must be covered first"
        cover = {t for t in self.hands[p] if v in t}
        if cover:
            self.play(p, f"a cover of {v}-{v} on {train_name(k)}", None, [k], ctx,
                      f"it holds a cover for the open double {v}-{v} on {train_name(k)} (e.g. {show(min(cover))})")
            return
        if self.boneyard:
            t = self.draw(p, f"it holds no cover for the open double {v}-{v}")
            if v in t:
                self.play(p, f"a play of the drawn {show(t)} on {train_name(k)}", t, [k],
                          f"only the drawn tile may cover the double {v}-{v} on {train_name(k)}",
                          f"the drawn tile {show(t)} covers the open double {v}-{v} on {train_name(k)} and must be played")
                return
            self.fail(p, f"the drawn tile {show(t)} does not cover the open double {v}-{v}")
            return
        self.fail(p, f"it holds no cover for the open double {v}-{v} and the boneyard is empty")

    def normal(self, p):
        targets = self.normal_targets(p)
        opts = self.options(self.hands[p], targets)
        first = " (first turn of the round: own train only)" if self.turns_taken[p] == 0 else ""
        ctx = "first turn of the round: only the own train may be played on" if first else \
            f"allowed trains are {', '.join(train_name(k) for k in targets)}"
        if opts:
            t, k, out = self.play(p, "a play", None, targets, ctx,
                                  f"it has a legal play{first} (e.g. {self.example(opts)}): must play")
        elif self.boneyard:
            d = self.draw(p, f"it has no legal play{first}")
            dopts = self.options({d}, targets)
            if not dopts:
                self.fail(p, f"the drawn tile {show(d)} has no legal play{first}")
                return
            t, k, out = self.play(p, f"a play of the drawn {show(d)}", d, targets, ctx,
                                  f"the drawn tile {show(d)} is playable (e.g. {self.example(dopts)}) and must be played")
        else:
            self.fail(p, f"it has no legal play{first} and the boneyard is empty")
            return
        if out:
            return
        if t[0] == t[1]:
            self.followup(p, t[0], k)

    def followup(self, p, v, k):
        if self.unplayed(v) == 0 and not self.hc:  # harbour_cay: the round ended stuck instead
            self.turn_double["exempt"] = True  # last-of-suit exemption: no cover, no obligation
            return
        ctx = f"after the double {v}-{v} the follow-up must cover it on {train_name(k)}"
        cover = {t for t in self.hands[p] if v in t}
        if cover:
            self.play(p, f"a cover of {v}-{v} on {train_name(k)}", None, [k], ctx,
                      f"after placing the double {v}-{v} it holds a cover (e.g. {show(min(cover))}) that must be played on it")
            return
        if self.boneyard:
            d = self.draw(p, f"after placing the double {v}-{v} it holds no cover")
            if v in d:
                self.play(p, f"a cover of {v}-{v} with the drawn {show(d)}", d, [k],
                          f"only the drawn tile may cover the double {v}-{v} on {train_name(k)}",
                          f"the drawn tile {show(d)} covers the double {v}-{v} and must be played on it")
                return
            self.fail(p, f"the double {v}-{v} is uncovered and the drawn tile {show(d)} does not cover it")
            return
        self.fail(p, f"the double {v}-{v} is uncovered and the boneyard is empty")

    # --- the whole round ------------------------------------------------------------------

    def run(self):
        p = self.first
        while True:
            self.turn(p)
            if self.ended:
                break
            line, ev = self.s.peek()
            if ev is not None and ev.get("event") in ("play", "draw", "mark", "pass") and ev.get("seat") == p:
                if ev.get("event") == "mark" and self.marker[p]:
                    raise Illegal(line, f"mark by seat {p} whose marker is already on")
                raise Illegal(line, f"{describe(ev)}, but seat {p}'s turn is already complete")
            p = (p + 1) % self.n
        line, ev = self.s.take("round_end")
        if ev.get("event") != "round_end":
            if self.ended[0] == "out":
                raise Illegal(line, f"seat {self.ended[1]} went out, so the round must end here; got {describe(ev)}")
            if self.ended[0] == "stuck":
                raise Illegal(line, f"no tile can ever be played again: the round is stuck and must end here; got {describe(ev)}")
            raise Illegal(line, f"{self.n} consecutive idle turns with an empty boneyard: the round is blocked and must end here; got {describe(ev)}")
        self.events += 1
        reason = need(ev, line, "reason", str)
        if reason != self.ended[0]:
            raise Illegal(line, f"round_end reason '{reason}', expected '{self.ended[0]}'")
        if self.ended[0] == "out":
            out = need(ev, line, "out", int)
            if out != self.ended[1]:
                raise Illegal(line, f"round_end says seat {out} went out, but it was seat {self.ended[1]}")
        elif "out" in ev:
            raise Illegal(line, f"a {self.ended[0]} round_end must not name an 'out' seat")
        scores = int_list(ev, line, "scores", self.n)
        want = [self.score(h) for h in self.hands]
        for s in range(self.n):
            if scores[s] != want[s]:
                left = " ".join(show(t) for t in sorted(self.hands[s])) or "nothing"
                raise Illegal(line, f"seat {s} scores {scores[s]}, but its hand ({left}) is worth {want[s]}")
        return scores


# ---------------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------------


def winners_of(totals, rounds, shared=False):
    n = len(totals)
    best = min(totals)
    cands = [s for s in range(n) if totals[s] == best]
    if shared:
        return cands

    def zeros(s):
        return sum(1 for r in rounds if r[s] == 0)

    most = max(zeros(s) for s in cands)
    cands = [s for s in cands if zeros(s) == most]

    def min_nonzero(s):
        nz = [r[s] for r in rounds if r[s] != 0]
        return min(nz) if nz else float("inf")

    low = min(min_nonzero(s) for s in cands)
    return [s for s in cands if min_nonzero(s) == low]


def deal_of(ev, line, r, e, m, n, h, full, hc):
    """Checks a round event's number, engine number and deal; returns (hands, boneyard)."""
    if need(ev, line, "round", int) != r:
        raise Illegal(line, f"round number {ev['round']}, expected {r}")
    if need(ev, line, "engine", int) != e:
        raise Illegal(line, f"round {r} engine {ev['engine']}, expected {e} (rounds go from {m}-{m} down)")
    # wikipedia sets [e|e] aside; harbour_cay deals the whole set
    seen = set() if hc else {(e, e)}
    hands_raw = need(ev, line, "hands", list)
    if len(hands_raw) != n:
        raise Illegal(line, f"{len(hands_raw)} hands for {n} players")
    def take(text, where):
        """A dealt tile, refused if it was dealt already (or is the set-aside engine)."""
        t = key(*parse_tile(text, m, line))
        if t in seen:
            what = "the engine tile" if t == (e, e) and not hc else "dealt twice"
            raise Illegal(line, f"{where.format(show(t))} is {what}")
        seen.add(t)
        return t

    hands = []
    for s, hr in enumerate(hands_raw):
        if not isinstance(hr, list) or len(hr) != h:
            raise Illegal(line, f"seat {s} is dealt {len(hr) if isinstance(hr, list) else hr!r} tiles, expected {h}")
        hands.append({take(text, "tile {} in seat " + str(s) + "'s hand") for text in hr})
    boneyard = [take(text, "boneyard tile {}") for text in need(ev, line, "boneyard", list)]
    if seen != full:
        missing = " ".join(show(t) for t in sorted(full - seen))
        raise Illegal(line, f"hands, boneyard and engine are not the full double-{m} set: missing {missing}")
    return hands, boneyard


def referee(path):
    try:
        with open(path, encoding="utf-8") as f:
            raw = f.read().split("\n")
    except OSError as err:
        raise CannotRead(f"cannot read log: {err}")
    if raw and raw[-1] == "":
        raw.pop()
    events = []
    for i, text in enumerate(raw, start=1):
        try:
            ev = json.loads(text)
        except json.JSONDecodeError as err:
            raise Illegal(i, f"not valid JSON ({err.msg})")
        if not isinstance(ev, dict) or not isinstance(ev.get("event"), str):
            raise Illegal(i, "not a JSON object with an 'event' field")
        events.append((i, ev))
    st = Stream(events, len(raw) + 1)
    # A tournament's log (`mtrain tournament --log-games`) holds its games one after another.
    matches = rounds = count = 0
    while True:
        k, c = one_match(st)
        matches, rounds, count = matches + 1, rounds + k, count + c
        line, ev = st.peek()
        if ev is None:
            return matches, rounds, count
        if ev.get("event") != "match":
            raise Illegal(line, f"{describe(ev)} after match_end")


def one_match(st):
    """Referees one match from its `match` event to its `match_end`."""
    line, ev = st.take("the match event")
    if ev.get("event") != "match":
        raise Illegal(line, f"the log must start with a 'match' event, got {describe(ev)}")
    rules = need(ev, line, "rules", str)
    if rules not in PRESETS:
        raise Illegal(line, f"this referee knows only the presets {', '.join(PRESETS)}, not '{rules}'")
    hc = rules == "harbour_cay"
    m = need(ev, line, "set", int)
    if m not in SETS:
        raise Illegal(line, f"set double-{m} is not one of {SETS}")
    n = need(ev, line, "players", int)
    if n < 2:
        raise Illegal(line, f"{n} players")
    h = need(ev, line, "hand", int)
    k_rounds = need(ev, line, "rounds", int)
    if not 1 <= k_rounds <= m + 1:
        raise Illegal(line, f"{k_rounds} rounds: a double-{m} match has 1 to {m + 1}")
    if h < 1 or n * h > (m + 1) * (m + 2) // 2 - 1:
        raise Illegal(line, f"{n} hands of {h} tiles do not fit in a double-{m} set")
    bots = need(ev, line, "bots", list)
    if len(bots) != n:
        raise Illegal(line, f"{n} players but {len(bots)} bots")
    options = Options(ev.get("options", {}), need(ev, line, "seed", int), line)
    count = 1

    full = {(a, b) for a in range(m + 1) for b in range(a, m + 1)}
    all_scores = []
    f1 = 0  # ED-2: first player of round 1 (the CLI has no option for it)
    for r in range(1, k_rounds + 1):
        e = m - r + 1
        while True:
            line, ev = st.take(f"round {r}")
            if ev.get("event") != "round":
                raise Illegal(line, f"expected the start of round {r}, got {describe(ev)}")
            count += 1
            hands, boneyard = deal_of(ev, line, r, e, m, n, h, full, hc)
            if "redeal" not in ev:
                break
            if not hc or ev["redeal"] is not True:
                raise Illegal(line, f"'redeal': {ev['redeal']!r} (only a harbour_cay deal is redealt, marked true)")
            if "first" in ev:
                raise Illegal(line, "a redealt deal has no first turn, but the round event names one")
            for s, hand in enumerate(hands):
                for t in hand:
                    if e in t:
                        raise Illegal(line, f"deal marked redeal, but seat {s} holds {show(t)}, which shows {e}")
        if hc:
            # Great Harbour Cay: [e|e] if dealt, else the [e|w] with the largest w held; its holder places it
            # and plays first
            held = [(t, s) for s, hand in enumerate(hands) for t in hand if e in t]
            if not held:
                raise Illegal(line, f"no hand holds a tile showing {e}: the deal must be redealt (a 'round' event marked \"redeal\": true, then the round again)")
            other = lambda t: t[1] if t[0] == e else t[0]
            big, placer = max(held, key=lambda ts: (other(ts[0]) == e, other(ts[0])))
            first = placer
            if need(ev, line, "first", int) != first:
                raise Illegal(line, f"round {r} first seat {ev['first']}, expected {first} (the engine's placer plays first)")
            line, ev = st.take("the engine event")
            if ev.get("event") != "engine":
                raise Illegal(line, f"expected the engine event of round {r}, got {describe(ev)}")
            count += 1
            x, y = parse_tile(ev.get("tile"), m, line)
            if need(ev, line, "seat", int) != placer or key(x, y) != big:
                raise Illegal(line, f"engine {ev.get('tile')} by seat {ev.get('seat')}, expected {e}-{other(big)} by seat {placer}")
            if x != e:
                raise Illegal(line, f"engine {ev.get('tile')} must be written with the engine number {e} first")
            hands[placer].discard(big)
        else:
            first = (f1 + r - 1) % n
            if need(ev, line, "first", int) != first:
                raise Illegal(line, f"round {r} first seat {ev['first']}, expected {first} (F_r = (F1 + r - 1) mod N)")
        rnd = Round(st, m, n, e, first, hands, boneyard, hc, options, r)
        all_scores.append(rnd.run())
        count += rnd.events

    line, ev = st.take("match_end")
    if ev.get("event") != "match_end":
        raise Illegal(line, f"expected match_end after {k_rounds} rounds, got {describe(ev)}")
    count += 1
    totals = int_list(ev, line, "totals", n)
    want = [sum(r[s] for r in all_scores) for s in range(n)]
    if totals != want:
        raise Illegal(line, f"totals {totals}, but the round scores add up to {want}")
    winners = need(ev, line, "winners", list)
    if any(isinstance(w, bool) or not isinstance(w, int) for w in winners):
        raise Illegal(line, f"winners {winners} must be seat numbers")
    want_w = winners_of(want, all_scores, shared=hc)
    if sorted(winners) != want_w:
        tie = "ties are shared" if hc else "ties: most zero rounds, then lowest non-zero round"
        raise Illegal(line, f"winners {winners}, expected {want_w} (lowest total; {tie})")
    return k_rounds, count


def main(argv):
    if len(argv) != 2:
        print("usage: referee.py LOG.jsonl", file=sys.stderr)
        return 2
    try:
        matches, rounds, events = referee(argv[1])
    except CannotRead as err:
        print(f"referee.py: {err}", file=sys.stderr)
        return 2
    except Illegal as err:
        print(f"ILLEGAL line {err.line}: {err.reason}")
        return 1
    if matches == 1:
        print(f"OK: {rounds} rounds, {events} events refereed")
    else:
        print(f"OK: {matches} matches, {rounds} rounds, {events} events refereed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
