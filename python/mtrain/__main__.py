"""The ``mtrain`` command line from the Python package: ``python -m mtrain tournament ...`` (and
the ``mtrain`` script ``pip install`` puts on the path) runs exactly the Rust command line.

Signals reach it as they reach the ``mtrain`` binary: Python's own Ctrl-C handler (which would
only raise ``KeyboardInterrupt`` once the command is over) is set aside while it runs, so a
long run stops as the binary's does, and exits 130 without a Python traceback."""

import signal
import sys

from . import _mtrain

#: The exit status of a command line stopped by Ctrl-C (128 + SIGINT), as the shell reports it.
INTERRUPTED = 128 + signal.SIGINT


def main() -> None:
    previous = _default_sigint()
    try:
        code = _mtrain.main(["mtrain", *sys.argv[1:]])
    except KeyboardInterrupt:
        code = INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    sys.exit(code)


def _default_sigint():
    """Gives SIGINT back its default action while the command line runs, as for the binary: the
    commands that save their work on a signal catch it themselves, the others end at once. An
    ignored SIGINT stays ignored. Returns the handler to put back (``None``: nothing changed)."""
    try:
        previous = signal.getsignal(signal.SIGINT)
        if previous in (signal.SIG_IGN, signal.SIG_DFL, None):
            return None
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        return previous
    except ValueError:  # not the main thread: signals are not this thread's to change
        return None


if __name__ == "__main__":
    main()
