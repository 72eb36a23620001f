"""``python -m skxor``: the ``skxor`` command (:func:`skxor.cli.main`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
