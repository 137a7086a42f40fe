"""Ctrl-C from Python stops a run with search bots in seconds, as the command line's does: the
first says so in one line and waits briefly for the games in flight, a second (or the end of
the wait) cuts them short. The ``mtrain`` console command stopped by Ctrl-C exits 130 without
a Python traceback."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

# The child's own Ctrl-C handler, whatever it inherited: a process started in the background
# by a non-interactive shell ignores SIGINT, and the signal would never arrive.
CHILD = textwrap.dedent(
    """
    import signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import mtrain

    small = dict(players=2, games=4, seed=5, rounds=2, threads=1)
    before = mtrain.tournament("expert,greedy", **small).summary.csv
    print("started", flush=True)
    try:
        mtrain.tournament("expert,greedy", players=2, games=2_000_000, seed=1, threads=2)
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    # The next call searches again: the same numbers as before the interrupted one.
    after = mtrain.tournament("expert,greedy", **small).summary.csv
    print("searches again" if after == before else "searches abandoned", flush=True)
    """
)

STOPPING = "mtrain: stopping: finishing the games in flight"


def default_sigint() -> None:
    """In the child before it starts: SIGINT's default action, so that Python installs its own
    Ctrl-C handler as in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(child: subprocess.Popen, signals: int) -> float:
    """Sends `signals` SIGINTs, 0.1 s apart; returns the time of the first."""
    start = time.monotonic()
    for i in range(signals):
        if i:
            time.sleep(0.1)
        child.send_signal(signal.SIGINT)
    return start


def finish(child: subprocess.Popen, start: float, within: float):
    """The child's output once it ends, failing when it takes more than `within` seconds."""
    try:
        out, err = child.communicate(timeout=within + 20)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"still running {within + 20} s after Ctrl-C; stderr: {err}")
    took = time.monotonic() - start
    assert took < within, f"took {took:.1f} s to stop; stderr: {err}"
    return out, err


@pytest.mark.parametrize("signals", [1, 2])
def test_ctrl_c_stops_a_tournament_of_search_bots_in_seconds_and_says_so(signals):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    assert child.stdout.readline().strip() == "started", child.communicate()[1]
    time.sleep(1.0)  # the long run under way, its expert games in flight
    start = interrupt(child, signals)
    # The grace is 2 s; a second signal cuts at once.
    out, err = finish(child, start, within=8 if signals == 1 else 5)
    assert out.split() == ["interrupted", "searches", "again"], (out, err)
    lines = err.splitlines()
    assert lines and lines[0].startswith(STOPPING), err
    assert "Ctrl-C again to stop now" in lines[0], err
    # One line, however many signals.
    assert sum(STOPPING in line for line in lines) == 1, err


def console_commands():
    script = Path(sys.executable).with_name("mtrain")
    return [
        pytest.param([str(script)], id="script", marks=pytest.mark.skipif(not script.exists(), reason="no script")),
        pytest.param([sys.executable, "-m", "mtrain"], id="module"),
    ]


@pytest.mark.parametrize("command", console_commands())
def test_the_console_command_stopped_by_ctrl_c_exits_130_without_a_traceback(tmp_path, command):
    out = tmp_path / "run"
    child = subprocess.Popen(
        [*command, "tournament", "--bots", "expert,greedy", "--games", "2000000", "--threads", "2", "--quiet",
         "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    # The folder is made once the command line catches signals.
    deadline = time.monotonic() + 60
    while not out.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out.exists(), child.communicate()[1] if child.poll() is not None else "no folder after 60 s"
    time.sleep(1.0)
    start = interrupt(child, 2)
    _, err = finish(child, start, within=5)
    assert child.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.startswith(STOPPING), err
    assert (out / "tally.json").is_file()
