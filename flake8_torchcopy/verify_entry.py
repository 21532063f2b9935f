"""Entry point of ``torchcopy-verify``: a one-line message instead of a traceback without torch."""
from __future__ import annotations

import sys
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torchcopy-verify: needs torch: pip install 'flake8-torchcopy[verify]'", file=sys.stderr)
        return 2
    from .verify.cli import main as verify_main

    return verify_main(argv)


if __name__ == "__main__":
    sys.exit(main())
