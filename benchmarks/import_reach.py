"""How much would torchcopy-fix gain from the summaries of modules a file imports?

For every corpus file that holds a trigger word, follows each relative import
(``from .utils import f``) to its module in the same package, and counts the imported
functions whose every return is a torch constructor (the module-level return summary,
:func:`flake8_torchcopy.analysis.returns.returns_tensor`, with the target module's
imports), and the places where such a function's result is passed straight to a copy
idiom (``torch.tensor(f(...))``, ``deepcopy(f(...))``, ``f(...).clone().detach()``...).

    python benchmarks/import_reach.py [--root .corpora]
"""
from __future__ import annotations

import argparse
import ast
import glob
import os
import re
import sys
from typing import Callable, Dict, Optional, Set

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from flake8_torchcopy.analysis.returns import returns_tensor  # noqa: E402

TRIGGER = re.compile(r"tensor\(|deepcopy\(|new_tensor\(|clone\(\)\.detach|Tensor\(")


def qualnames(tree: ast.Module) -> Callable[[ast.AST], Optional[str]]:
    """A name resolver from a module's top-level absolute imports."""
    names: Dict[str, str] = {}
    for n in tree.body:
        if isinstance(n, ast.Import):
            for a in n.names:
                names[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(n, ast.ImportFrom) and not n.level:
            for a in n.names:
                names[a.asname or a.name] = f"{n.module}.{a.name}"

    def resolve(node: ast.AST) -> Optional[str]:
        if isinstance(node, ast.Name):
            return names.get(node.id)
        if isinstance(node, ast.Attribute):
            base = resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    return resolve


_cache: Dict[str, Set[str]] = {}


def tensor_functions(path: str) -> Set[str]:
    if path not in _cache:
        try:
            tree = ast.parse(open(path, encoding="utf-8").read())
        except (SyntaxError, ValueError, UnicodeDecodeError):
            tree = ast.Module(body=[], type_ignores=[])
        q = qualnames(tree)
        _cache[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and returns_tensor(n, q)}
    return _cache[path]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=".corpora")
    args = ap.parse_args()
    imported = 0
    hits = []
    for f in sorted(glob.glob(os.path.join(args.root, "**", "*.py"), recursive=True)):
        try:
            src = open(f, encoding="utf-8").read()
            tree = ast.parse(src)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        if not TRIGGER.search(src):
            continue
        for n in ast.walk(tree):
            if not (isinstance(n, ast.ImportFrom) and n.level):
                continue
            base = os.path.dirname(f)
            for _ in range(n.level - 1):
                base = os.path.dirname(base)
            mod = os.path.join(base, *n.module.split(".")) if n.module else base
            target = next((c for c in (mod + ".py", os.path.join(mod, "__init__.py")) if os.path.exists(c)), None)
            if target is None:
                continue
            for a in n.names:
                if a.name not in tensor_functions(target):
                    continue
                imported += 1
                name = re.escape(a.asname or a.name)
                for pat in (r"(?:torch\.tensor|deepcopy|new_tensor|torch\.Tensor)\(\s*" + name + r"\(",
                            name + r"\([^\n]*\)\.clone\(\)\.detach"):
                    for m in re.finditer(pat, src):
                        hits.append(f"{f}:{src.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    print(f"relative imports of functions that return a tensor: {imported}")
    print(f"their results passed straight to a copy idiom: {len(hits)}")
    for h in hits:
        print("  " + h)
    return 0


if __name__ == "__main__":
    sys.exit(main())
