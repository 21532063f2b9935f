"""``python -m flake8_torchcopy``: the same as the ``torchcopy-fix`` command."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
