"""Entry point of ``torchcopy-verify``: its arguments, parsed before torch is imported, so
``--help`` and usage errors work without torch, and a missing torch is one line, not a traceback.

Exit status (one meaning each): 0 equivalent or improved; 1 mismatch; 2 usage error or
the verification could not be run as asked (bad argument, bad ``--input``, no such device,
torch or matplotlib missing); 3 unverified (it ran, but no case could be compared).
With ``--rules`` the status is the worst over the safe fixes: 1 when one is a mismatch,
else 3 when one is unverified.
"""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

EXIT_OK, EXIT_MISMATCH, EXIT_USAGE, EXIT_UNVERIFIED = 0, 1, 2, 3


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="torchcopy-verify",
        description="Check that a PyTorch expression rewrite keeps behaviour, and time it.",
        epilog="exit status: 0 equivalent or improved, 1 mismatch, 2 usage error or cannot run "
               "as asked, 3 unverified (nothing could be compared)",
    )
    p.add_argument("--before", help="the original expression")
    p.add_argument("--after", help="the rewritten expression")
    p.add_argument("--rules", action="store_true", help="verify every fix of every rule from its examples")
    p.add_argument("--select", default="", help="with --rules: comma-separated rule codes")
    p.add_argument("--rule", metavar="CODE",
                   help="with --before/--after: the rule the rewrite comes from (TRC107...), which "
                        "decides the errors of the original it may remove and be 'improved'; "
                        "without it only a .view() size/stride RuntimeError counts")
    p.add_argument("--device", default="all", choices=("cpu", "cuda", "all"),
                   help="cpu, cuda, or all (CPU always, CUDA when available; default)")
    p.add_argument("--json", metavar="PATH", help="write the report(s) as JSON ('-' for stdout)")
    p.add_argument("--bench", dest="bench", action="store_true", default=None,
                   help="time before and after (default: on)")
    p.add_argument("--no-bench", dest="bench", action="store_false", help="skip timing")
    p.add_argument("--sizes", help="element counts to time, e.g. '1,16,2^10' "
                   "(default 2^0..2^24; with --rules up to 2^20; 0-d inputs are timed once)")
    p.add_argument("--repeats", type=int, default=5,
                   help="timed repetitions per size, alternating before and after (default 5)")
    p.add_argument("--min-run-time", type=float, default=None,
                   help="seconds per repetition (default 0.05)")
    p.add_argument("--plot", metavar="FILE",
                   help="plot time against size (needs matplotlib); any format matplotlib writes "
                        "(.png, .svg, .pdf); with --rules one file per rule, FILE's stem + '-TRC1xx'")
    p.add_argument("--input", action="append", default=[], metavar="NAME=SPEC",
                   help="say what an input is: n=int:1..4, x=tensor:rank=3, d=dtype:float32|int64")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-cases", type=int, default=None,
                   help="verify a seeded sample of this many cases per device (default: all)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("torchcopy-verify: needs torch: pip install 'flake8-torchcopy[verify]'", file=sys.stderr)
        return EXIT_USAGE
    from .verify.cli import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
