"""mtrain from Python: the Mexican Train engine, its bots, tournaments and studies.

Every run is played in Rust by the same job the ``mtrain`` command line runs, with the GIL
released; its tables are exactly the CSV files the command line writes for the same arguments,
read into lists of records (and into pandas data frames with ``.to_pandas()``).

>>> import mtrain
>>> r = mtrain.tournament(bots=["greedy", "random"], players=2, games=200, seed=1)
>>> r.summary[0]["strategy"]
'greedy'
"""

from __future__ import annotations

import csv
import io
import json
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from . import _mtrain
from ._mtrain import Game, State, episode_seed, stream_seed

__version__ = _mtrain.__version__

#: Rule changes, in either shape every function and class takes: a dict ``{rule: value}``
#: (``{"tap": "draw_two", "fast_game": True}``) or a list of ``"rule=value"`` strings
#: (``["tap=draw_two"]``), as ``--rule`` takes them.
Options = Union[Dict[str, object], Sequence[str]]

#: A progress callback: called as ``progress(done, total)`` in the run's unit (games, or a tuning
#: run's iterations) from the calling thread while a run plays.
Progress = Callable[[int, int], None]

__all__ = [
    "BalanceResult",
    "CompareResult",
    "VecEnv",
    "vec_env",
    "Game",
    "State",
    "Table",
    "TournamentResult",
    "TuneResult",
    "balance",
    "compare",
    "episode_seed",
    "run",
    "strategies",
    "stream_seed",
    "tournament",
    "tune",
    "__version__",
]


def _number(text: str) -> Union[int, float, str, None]:
    """A CSV field as the value it writes: an integer, a float, text, or None when empty."""
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


class Table(list):
    """The rows of one CSV report as dicts (column to value), in the file's order.

    ``table.csv`` is the file's exact text (what ``mtrain ... --out`` writes), ``table.columns``
    its header, and ``table.to_pandas()`` a ``pandas.DataFrame`` of the same rows.
    """

    def __init__(self, name: str, text: str) -> None:
        reader = csv.reader(io.StringIO(text))
        header = next(reader, [])
        super().__init__({c: _number(v) for c, v in zip(header, row)} for row in reader)
        self.name = name
        self.columns: List[str] = header
        self.csv = text

    def to_pandas(self):
        """The table as a ``pandas.DataFrame`` (pandas must be installed: ``mtrain[pandas]``)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install pandas (or the extra: mtrain[pandas])") from None

        return pd.read_csv(io.StringIO(self.csv), keep_default_na=False, na_values=[""])

    def __repr__(self) -> str:
        return f"<mtrain.Table {self.name}: {len(self)} rows, columns {', '.join(self.columns)}>"

    def __str__(self) -> str:
        return self.csv


class _Result:
    """What a run returns: its tables (each a :class:`Table`, by file name without ``.csv``), the
    header and report the command line prints, the games played, whether it stopped early, and
    ``spec``, the run's spec as data (what a run folder's state file stores under
    ``config.spec``), which :func:`run` plays again."""

    def __init__(self, raw: Dict[str, object]) -> None:
        files: Dict[str, str] = raw["files"]  # type: ignore[assignment]
        self.tables: Dict[str, Table] = {
            name[: -len(".csv")]: Table(name, text) for name, text in files.items() if name.endswith(".csv")
        }
        self.plots: Dict[str, str] = {name: text for name, text in files.items() if name.endswith(".svg")}
        self.header: str = raw["header"]  # type: ignore[assignment]
        self.report: str = raw["console"]  # type: ignore[assignment]
        self.games: int = raw["games"]  # type: ignore[assignment]
        self.stopped: bool = raw["stopped"]  # type: ignore[assignment]
        #: The spec played, as data: ``mtrain.run(kind, result.spec)`` plays the run again.
        self.spec: Dict[str, object] = json.loads(raw["spec"])  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"<mtrain.{type(self).__name__}: {self.games} games, tables {', '.join(self.tables)}>"


class TournamentResult(_Result):
    """What a tournament returns: its tables, the console report and how many games it played.

    Tables (each a :class:`Table`): ``summary`` (a row per bot), ``seats``, ``pairs``,
    ``ratings``, ``round_stats``; docs/csv.md describes every column.
    """

    summary = property(lambda self: self.tables["summary"], doc="A row per bot (summary.csv).")
    seats = property(lambda self: self.tables["seats"], doc="A row per seat (seats.csv).")
    pairs = property(lambda self: self.tables["pairs"], doc="A row per pair of bots (pairs.csv).")
    ratings = property(lambda self: self.tables["ratings"], doc="Elo ratings (ratings.csv).")
    round_stats = property(
        lambda self: self.tables["round_stats"], doc="Round statistics (round_stats.csv)."
    )

    def __str__(self) -> str:
        return self.header + "\n" + self.report


def tournament(
    bots: Optional[Union[str, Sequence[str]]] = None,
    *,
    players: int = 4,
    games: int = 10_000,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    hand: Optional[int] = None,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
    threads: Optional[int] = None,
    gauntlet: Optional[str] = None,
    anchor: Optional[str] = None,
    rotate: bool = True,
    vary_order: bool = True,
    progress: Optional[Progress] = None,
) -> TournamentResult:
    """Plays a tournament as ``mtrain tournament`` does and returns its tables.

    ``bots`` is the field: a list of bot specs (``"greedy"``, ``"montecarlo:samples=32"``) and
    Python bots, or one comma-separated string; ``None`` is the command line's default field. A
    Python bot is an object of one of two shapes, named in the tables by its ``name`` attribute:

    - a *tensor bot* has an ``act(obs, mask)`` method: ``obs`` is the seat's observation tensor
      (:meth:`State.observation_tensor`, float32) and ``mask`` the action mask (int8, 1: legal),
      exactly what :mod:`mtrain.gym`, :mod:`mtrain.pettingzoo` and :func:`vec_env` give a learner
      at the same decision; the answer is an action number. A policy trained in those
      environments plays here as it is.
    - otherwise a *protocol bot* has a ``choose(observation, legal)`` method: ``observation`` is
      the bot protocol's ``decide`` message as a dict, ``legal`` its list of moves, and the
      answer an index into ``legal``.

    A bot that raises, or answers an illegal action, fails the run with a ``RuntimeError``
    naming it and the error. ``options`` are
    rule changes, a dict or a list of strings (``{"tap": "draw_two"}`` or ``["tap=draw_two"]``:
    ``--rule tap=draw_two``). ``threads`` is 1 to 4 per core (at least 16 are allowed; default:
    every core). The same arguments give the same numbers as the command line, at any thread
    count. A bad argument raises a ``ValueError`` (a ``TypeError`` for a value of the wrong type)
    naming it and its valid range. The arguments become the run's spec, the data
    :func:`run` takes: the result's ``spec``, so ``mtrain.run("tournament", r.spec)`` plays the
    same run again.

    Ctrl-C stops the run as the command line's does: the first prints one line and lets the
    games in flight finish for at most 2 seconds, a second (or the end of those seconds) cuts
    them short, even with search bots; then ``KeyboardInterrupt`` is raised. ``progress``, if
    given, is called as ``progress(done, total)`` (games) while the run plays, from the calling
    thread; an exception it raises stops the run as Ctrl-C does and is raised.
    """
    return TournamentResult(_run_keywords("tournament", dict(locals())))


def _run_keywords(kind: str, kw: Dict[str, object]) -> Dict[str, object]:
    """A keyword function's run: its arguments ``kw`` (its ``locals()``) handed to Rust as they
    are, where one table per kind checks each keyword and puts it into the kind's spec (the
    Python bots in ``bots`` go apart, ``threads`` and ``progress`` are no part of the spec)."""
    if "bots" in kw:
        kw["bots"], python_bots = _field(kw["bots"])
    else:
        python_bots = []
    threads, progress = kw.pop("threads"), kw.pop("progress")
    return _mtrain.run_keywords(kind, kw, python_bots=python_bots, threads=threads, progress=progress)


def _is_bot(obj) -> bool:
    """Whether ``obj`` is a Python bot: it has a callable ``act`` (a tensor bot) or ``choose``."""
    return callable(getattr(obj, "act", None)) or callable(getattr(obj, "choose", None))


def _field(bots) -> Tuple[Optional[str], List[Tuple[str, object]]]:
    """The field as a ``--bots`` list, and the Python bots in it as ``(name, object)``: any
    object with an ``act(obs, mask)`` or a ``choose(observation, legal)`` method, named by its
    ``name`` attribute (else ``python1``, ``python2``, ...)."""
    if bots is None or isinstance(bots, str):
        return bots, []
    names: List[str] = []
    python_bots: List[Tuple[str, object]] = []
    for b in bots:
        if isinstance(b, str):
            names.append(b)
        elif _is_bot(b):
            name = getattr(b, "name", None) or f"python{len(python_bots) + 1}"
            if all(o is not b for _, o in python_bots):
                python_bots.append((name, b))
            names.append(name)
        else:
            raise TypeError(
                f"{b!r} is neither a bot spec nor a Python bot (an object with an act(obs, mask) "
                "or a choose(observation, legal) method)"
            )
    return ",".join(names), python_bots


class BalanceResult(_Result):
    """What a balance sweep returns: its tables, its plots and the console report.

    Tables (each a :class:`Table`): ``balance`` (a row per player count, hand size and metric),
    ``recommendation`` (the pick per player count) and ``decisions`` (every figure against its
    limit); ``plots`` maps each metric's SVG file name to its text. A sweep stopped early
    (Ctrl-C) has no tables: ``stopped`` is true.
    """

    balance = property(lambda self: self.tables["balance"], doc="Every figure (balance.csv).")
    recommendation = property(
        lambda self: self.tables["recommendation"], doc="The pick per player count (recommendation.csv)."
    )
    decisions = property(lambda self: self.tables["decisions"], doc="Figures against limits (decisions.csv).")

    def __str__(self) -> str:
        return self.header + self.report


def balance(
    bots: Optional[Union[str, Sequence[str]]] = None,
    *,
    players: Union[int, Tuple[int, int]] = (2, 8),
    hands: Optional[Union[int, Tuple[int, int]]] = None,
    games: int = 4000,
    max_games: Optional[int] = None,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
    objective: str = "balanced",
    metrics: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    max_blocked: Optional[float] = None,
    max_first_edge: Optional[float] = None,
    first_player: Optional[str] = None,
    min_skill: Optional[float] = None,
    max_skill: Optional[float] = None,
    margin: Optional[float] = None,
    rank_by: str = "published",
    seconds_per_turn: float = 15.0,
    progress: Optional[Progress] = None,
) -> BalanceResult:
    """Sweeps hand sizes as ``mtrain balance`` does and returns its tables and plots.

    ``players`` and ``hands`` are a number or an inclusive ``(lo, hi)`` range, ``lo <= hi``
    (``players``: 2 to 16; ``hands=None``: from 5 tiles to the most the set deals); ``bots`` the
    population, strongest first and a beginner last (``None``: ``weighted,planner,greedy``),
    Python bots among them as in :func:`tournament`. The limits (``max_blocked``,
    ``max_first_edge``, ``first_player``, ``min_skill``, ``max_skill``, ``margin``) default to
    the command line's; ``mtrain balance --help`` explains each. ``rank_by`` ranks the
    candidates (``"skill"``, ``"blocked"``, ``"first_player"``, ``"minutes=90"``; the default
    ``"published"`` keeps the published hand whenever it is a candidate), and
    ``recommendation``'s ``pick_reason`` says whether the published hand stayed or a candidate
    was measurably better; ``seconds_per_turn`` turns match length into minutes. The tables equal the files of
    ``mtrain balance --out`` with the same arguments. The limits are shares from 0 to 1;
    ``options`` and ``threads`` are as in :func:`tournament`, and a bad argument raises there too.
    Ctrl-C and ``progress`` work as in :func:`tournament`.
    """
    kw = dict(locals())
    kw["metrics"] = None if metrics is None else list(metrics)
    return BalanceResult(_run_keywords("balance", kw))


class TuneResult(_Result):
    """What a tuning run returns: its trajectory, the tuned bot and the confirmation.

    ``tuned`` is the tuned bot's spec (``tuned.txt``; ``None`` when the run stopped before its
    last iteration), ``iterations`` the iterations played; tables (each a :class:`Table`):
    ``trajectory`` (a row per iteration) and ``confirm`` (the confirmation's SPRT, when the
    tuned parameters differ from the starting ones); ``plots["trajectory.svg"]`` the trajectory.
    """

    def __init__(self, raw: Dict[str, object]) -> None:
        super().__init__(raw)
        files: Dict[str, str] = raw["files"]  # type: ignore[assignment]
        self.tuned: Optional[str] = files["tuned.txt"].strip() if "tuned.txt" in files else None
        self.iterations: int = raw["played"]  # type: ignore[assignment]

    trajectory = property(lambda self: self.tables["trajectory"], doc="A row per iteration (trajectory.csv).")
    confirm = property(lambda self: self.tables.get("confirm"), doc="The confirmation (confirm.csv), if any.")

    def __repr__(self) -> str:
        return f"<mtrain.TuneResult: {self.iterations} iterations, tuned {self.tuned}>"

    def __str__(self) -> str:
        return self.header + self.report


def tune(
    bot: Optional[str] = None,
    *,
    params: Sequence[str] = (),
    iterations: int = 200,
    games: int = 64,
    perturbation: float = 0.1,
    rate: float = 2.0,
    seed: int = 1,
    confirm_sprt: Tuple[float, float] = (0.0, 10.0),
    confirm_games: int = 20_000,
    players: int = 4,
    rules: str = "wikipedia",
    set: int = 12,
    hand: Optional[int] = None,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
    threads: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> TuneResult:
    """Tunes a bot's numeric parameters as ``mtrain tune`` does and returns the trajectory, the
    tuned bot and the confirmation.

    ``bot`` is the bot with its starting parameters (``"weighted"``, ``"weighted:pips=1.5"``;
    ``None``: the command line's default), ``params`` the parameters to tune with their ranges
    (``["pips=0:3", "plan_tile=-2:1"]``). Each of ``iterations`` SPSA iterations plays ``games``
    games of the two perturbed bots against each other; then the tuned bot meets the starting one
    on fresh deals in an SPRT with Elo bounds ``confirm_sprt``, for at most ``confirm_games``
    games. The same arguments give the same trajectory as ``mtrain tune``, at any thread count.
    The table and ``threads``, Ctrl-C and ``progress`` (in iterations) are as in
    :func:`tournament`.
    """
    kw = dict(locals())
    kw["params"] = list(params)
    kw["confirm_sprt"] = tuple(confirm_sprt)
    return TuneResult(_run_keywords("tune", kw))


class CompareResult(_Result):
    """What a comparison of rule sets returns: its tables and the summary in plain words.

    Tables (each a :class:`Table`): ``compare`` (a row per cell, compared rule set and figure:
    both figures, the difference, its 95% and adjusted intervals, the margin and the verdict
    ``changes``, ``no_change`` or ``undecided``) and ``rulesets`` (every rule set's figures with
    their own intervals); ``summary`` the plain-words summary (``summary.txt``). A comparison
    stopped early (Ctrl-C) has no tables: ``stopped`` is true.
    """

    def __init__(self, raw: Dict[str, object]) -> None:
        super().__init__(raw)
        files: Dict[str, str] = raw["files"]  # type: ignore[assignment]
        self.summary: Optional[str] = files.get("summary.txt")

    compare = property(lambda self: self.tables["compare"], doc="Every difference (compare.csv).")
    rulesets = property(lambda self: self.tables["rulesets"], doc="Every rule set's figures (rulesets.csv).")

    def __str__(self) -> str:
        return self.header + self.report


def compare(
    rulesets: Sequence[str],
    bots: Optional[Union[str, Sequence[str]]] = None,
    *,
    players: Union[int, Tuple[int, int]] = 4,
    hands: Optional[Union[int, Tuple[int, int]]] = None,
    games: int = 2000,
    seed: int = 1,
    set: int = 12,
    rounds: Optional[int] = None,
    margin: float = 0.01,
    relative_margin: float = 0.05,
    seconds_per_turn: float = 15.0,
    threads: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> CompareResult:
    """Compares rule sets on the same deals as ``mtrain compare`` does and returns its tables.

    ``rulesets`` are two or more rule sets, the first the baseline: each a preset name or
    ``"PRESET:key=value,key=value"`` (``["wikipedia", "wikipedia:tap=draw_two"]``). Every rule set
    plays the same deals at each player count and hand size (``players`` and ``hands`` as in
    :func:`balance`; ``hands=None``: from 5 tiles to the most every rule set deals, at most 24),
    ``games`` games per cell and rule set, with the population ``bots`` (``None``:
    ``weighted,planner,greedy``). Each figure's difference from the baseline gets its 95%
    interval and an interval adjusted for every difference reported (Bonferroni), judged at
    ``margin`` on shares and ``relative_margin`` of the baseline's figure on counts; minutes at
    ``seconds_per_turn``. The tables equal the files of ``mtrain compare --out`` with the same
    arguments. ``threads``, Ctrl-C and ``progress`` are as in :func:`tournament`.
    """
    kw = dict(locals())
    kw["rulesets"] = [rulesets] if isinstance(rulesets, str) else list(rulesets)
    return CompareResult(_run_keywords("compare", kw))


_RESULTS = {"tournament": TournamentResult, "balance": BalanceResult, "tune": TuneResult, "compare": CompareResult}


def run(
    kind: str,
    spec: Union[Dict[str, object], str],
    *,
    threads: Optional[int] = None,
    progress: Optional[Progress] = None,
):
    """Plays any kind of run (``"tournament"``, ``"balance"``, ``"tune"``) from its spec as data:
    a dict (or its JSON text) of exactly the fields a run's state file stores under
    ``config.spec`` (``tally.json`` or ``tune.json`` of an ``--out`` folder), so a stored run is
    played again with ``mtrain.run("tournament", json.load(open("out/tally.json"))["config"]["spec"])``.
    Returns the kind's result (:class:`TournamentResult`, :class:`BalanceResult`,
    :class:`TuneResult`). An unknown kind or a spec that does not parse raises ``ValueError``
    naming the problem; the run's own checks then raise as the keyword functions do.
    """
    text = spec if isinstance(spec, str) else json.dumps(spec)
    if kind not in _RESULTS:
        raise ValueError(f"unknown kind of run {kind!r} (valid: {', '.join(_RESULTS)})")
    return _RESULTS[kind](_mtrain.run(kind, text, threads=threads, progress=progress))


def vec_env(
    n: int,
    opponents: Union[str, Sequence[str]] = ("greedy",),
    *,
    players: Optional[int] = None,
    seat: int = 0,
    seed: int = 1,
    rules: str = "wikipedia",
    set: int = 12,
    hand: Optional[int] = None,
    rounds: Optional[int] = None,
    options: Optional[Options] = None,
):
    """``n`` games of one seat against built-in bots, stepped together in Rust on every core.

    Returns a ``VecEnv``, already reset: ``env.obs`` (n x ``Game.observation_shape()`` float32),
    ``env.mask`` (n x actions, uint8), ``env.rewards``, ``env.dones`` and ``env.illegal`` are
    numpy arrays written in place by ``env.step(actions)``, which also returns ``(obs, rewards,
    dones, infos)`` (the same arrays; ``infos["illegal"]`` is ``env.illegal``, ``infos["episode"]``
    each game's match number in its seed stream). ``actions``: one action number per game, any
    integer numpy array (int8 to int64, unsigned, strided) or a list (``numpy.asarray`` reads it,
    so a JAX array too); a float or bool array raises ``TypeError``, another shape ``ValueError``.
    An action outside a game's mask plays its first legal action and sets ``env.illegal[i]``. A
    finished game is dealt again at once: its ``dones`` entry is true and its row of ``obs`` is
    already the new match's. ``env.obs`` is read-only (each step rewrites only what changed in a
    row); copy it to change it. Seats, opponents, rules and rewards are those of :mod:`mtrain.gym`
    (Python bots among the opponents too).

    Seeds: game ``i`` plays the seed stream ``stream_seed(seed, i)``, its ``k``-th match dealt
    from ``episode_seed(stream_seed(seed, i), k)``, so ``mtrain.gym.env(...).reset(seed=
    mtrain.stream_seed(seed, i))`` replays game ``i``; nothing depends on the thread count. The
    games run on a thread pool of the process that steps them, so a forked child (multiprocessing's
    ``fork``) makes and steps its own environments. ``n`` is 1 to 1000000; a bad argument raises a
    ``ValueError`` or ``TypeError`` naming it and its range.
    """
    names, python_bots = _opponents(opponents)
    players = players if players is not None else len(names) + 1
    game = _game(rules, set, players, hand, rounds, options)
    env = _mtrain.VecEnv(n, game, names, seat, seed, python_bots)
    env.reset()
    return env


#: ``mtrain.VecEnv(n, opponents=..., players=..., seed=...)``: the name the vectorised
#: environment is known by; the same function as :func:`vec_env`.
VecEnv = vec_env


def _game(rules: str, set: int, players: int, hand, rounds, options) -> Game:
    """The :class:`Game` of a table, with ``options`` as rule changes (``{"tap": "draw_two"}`` or
    ``["tap=draw_two"]``)."""
    return Game(rules, set=set, players=players, hand=hand, rounds=rounds, options=options)


#: What render() warns without a render mode (it then returns None, as Gymnasium's envs do).
_NO_RENDER_MODE = (
    "render() shows nothing without a render mode: make the environment with render_mode=\"ansi\" "
    "(the board as text) or render_mode=\"human\" (printed)"
)


def _opponents(opponents) -> Tuple[List[str], List[Tuple[str, object]]]:
    """Opponents as bot specs and the Python bots among them (see :func:`tournament`)."""
    if isinstance(opponents, str) or _is_bot(opponents):
        opponents = [opponents]
    opponents = list(opponents)
    if not opponents:
        raise ValueError("opponents must be at least one bot spec or Python bot; got an empty list")
    field, python_bots = _field(opponents)
    return field.split(","), python_bots


def strategies() -> Dict[str, str]:
    """The built-in bots: name to a one-line description."""
    return dict(_mtrain.strategies())


class EvalResult(_Result):
    """What an evaluation returns: the table ``mtrain eval`` writes (``eval.csv``) and its report.

    ``table`` (a :class:`Table`, also ``tables["eval"]``) has a row per preset, table size and
    baseline (``score`` and its 95% interval, ``elo`` the Elo difference to the baseline and its
    interval), then the ratings (``baseline`` is ``rating``: ``elo`` the rating on the scale where
    greedy is 0, per preset and table size, then overall with ``preset`` ``all``); ``rating`` is
    the overall rating and ``rating_interval`` its 95% interval. docs/eval.md describes the
    protocol. An evaluation stopped early (Ctrl-C) has no table: ``stopped`` is true.
    """

    table = property(lambda self: self.tables["eval"], doc="Every cell and rating (eval.csv).")

    @property
    def rating(self) -> Optional[float]:
        """The overall rating (greedy = 0)."""
        row = self._overall()
        return None if row is None else row["elo"]

    @property
    def rating_interval(self) -> Optional[Tuple[float, float]]:
        """The overall rating's 95% interval."""
        row = self._overall()
        return None if row is None else (row["elo_lo"], row["elo_hi"])

    def _overall(self):
        rows = [r for r in self.tables.get("eval", []) if r["baseline"] == "rating" and r["preset"] == "all"]
        return rows[0] if rows else None

    def __str__(self) -> str:
        return self.header + self.report


def evaluate(
    bot,
    *,
    quick: bool = False,
    threads: Optional[int] = None,
    progress: Optional[Progress] = None,
) -> EvalResult:
    """Rates ``bot`` under the standard evaluation mtrain-eval v1, as ``mtrain eval --bot`` does,
    and returns its table.

    ``bot`` is one bot: a built-in spec (``"greedy"``, ``"montecarlo:samples=32"``) or a Python
    bot object (as in :func:`tournament`: an object with a ``choose(observation, legal)``
    method, named by its ``name`` attribute). It plays every preset, table size and frozen
    baseline of the protocol on the protocol's own deals; the table equals the ``eval.csv`` of
    ``mtrain eval --bot SPEC --out DIR`` for a built-in spec, at any thread count. ``quick``
    plays the small variant for smoke tests (its figures are not v1 figures). ``threads``,
    Ctrl-C and ``progress`` are as in :func:`tournament`. A spec that is not one known bot
    raises ``ValueError``.
    """
    if isinstance(bot, str):
        name, python_bots = bot, []
    else:
        name, python_bots = _field([bot])
    raw = _mtrain.run_keywords(
        "eval", {"bot": name, "quick": quick}, python_bots=python_bots, threads=threads, progress=progress
    )
    return EvalResult(raw)


__all__ += ["EvalResult", "evaluate"]
_RESULTS["eval"] = EvalResult
