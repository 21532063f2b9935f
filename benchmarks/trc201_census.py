"""TRC201 census: how often the view-legality proof decides on the corpora.

Every ``.view()`` whose receiver's sizes and strides the analysis tracked is
counted once, by the layout it was asked about: contiguous (proven legal, or
sizes not matched) or permuted (proven legal / undecided / proven illegal).
Runs TRC201 alone over the corpora and also lists its reports.

    python benchmarks/trc201_census.py [--root .corpora] [--out .bench/census.json]
    python benchmarks/trc201_census.py --corpora research   # the eight research packages

Run it against another checkout with ``PYTHONPATH=/path/to/checkout`` to compare.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import types
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from corpus_report import iter_files, read_source  # noqa: E402

NAMES = ("torch", "transformers", "diffusers", "timm", "torchvision", "lightning", "torch_geometric")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".corpora")
    ap.add_argument("--out", default=".bench/census.json")
    ap.add_argument("--corpora", nargs="*", default=list(NAMES),
                    help="corpora to count ('research' stands for the research-style group)")
    args = ap.parse_args()

    import flake8_torchcopy
    from flake8_torchcopy.analysis import layout, viewlegality
    from flake8_torchcopy.analysis import views as views_module
    from flake8_torchcopy.rules import trc201_view_after_permute as rule_module

    census: Counter = Counter()
    sites = []
    where = {"path": "", "line": 0}

    def counted_verdict(sizes, strides, target):
        result = viewlegality.view_verdict(sizes, strides, target)
        permuted = tuple(strides) != tuple(layout.contiguous_strides(sizes))
        census[("permuted" if permuted else "contiguous", result[0])] += 1
        sites.append([where["path"], where["line"], "permuted" if permuted else "contiguous", result[0]])
        return result

    rule = rule_module.RULE
    check = type(rule).check

    def located_check(self, node, ctx):
        where["line"] = node.lineno
        return check(self, node, ctx)

    type(rule).check = located_check

    proxy = types.SimpleNamespace(**{k: getattr(viewlegality, k) for k in dir(viewlegality)
                                     if not k.startswith("__")})
    proxy.view_verdict = counted_verdict
    views_module.VL = proxy  # only the rule's calls are counted (not reshape's inside the walker)

    reports = []
    import fetch_corpora
    names = [m for n in args.corpora for m in (fetch_corpora.RESEARCH_CORPORA if n == "research" else [n])]
    for name in names:
        for path in iter_files(args.root, name):
            where["path"] = os.path.relpath(path, args.root)
            try:
                source = read_source(path)
                findings = flake8_torchcopy.lint_source(source, path, rules=[rule])
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            for f in findings:
                reports.append({"corpus": name, "path": os.path.relpath(path, args.root),
                                "line": f.line, "message": f.message})
    table = {f"{a} {b}": n for (a, b), n in sorted(census.items())}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump({"census": table, "reports": reports, "sites": sites}, fh, indent=1)
    print(json.dumps(table, indent=1))
    for r in reports:
        print(f"{r['path']}:{r['line']}: {r['message']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
