"""The ``mtrain`` command line from the Python package: ``python -m mtrain tournament ...`` (and
the ``mtrain`` script ``pip install`` puts on the path) runs exactly the Rust command line."""

import sys

from . import _mtrain


def main() -> None:
    sys.exit(_mtrain.main(["mtrain", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
