"""The literal-led searches answer as the patterns they replace (flake8_torchcopy/textsearch.py).

Random texts built from the words the patterns look for, their neighbours and separators: a
whole word led by its literal matches where ``(?<![\\w])word`` does, and any of several
patterns where their alternation does.  Every search built at import compiles.
"""
import importlib
import pkgutil
import random
import re

import pytest

import flake8_torchcopy
from flake8_torchcopy.textsearch import AnyOf, whole_word

PIECES = ["t_", "get_", "tensor", "as_tensor", "is_tensor", "Tensor", "(", ")", ".", " ", "\n", "\r\n", "_",
          "x", "é", "\u2028", "\\\n", "'", '"', "=", "==", "deepcopy", "forward", "__call__", "vars"]


def _texts(n: int, seed: int):
    rnd = random.Random(seed)
    for _ in range(n):
        yield "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 12)))


@pytest.mark.parametrize("name", ["t_", "tensor", "Tensor", "deepcopy", "__call__"])
def test_a_whole_word_matches_where_the_lookbehind_pattern_does(name):
    led = re.compile(whole_word(name, r"\s*\("))
    behind = re.compile(r"(?<![\w])%s\s*\(" % re.escape(name))
    for text in _texts(3000, len(name)):
        assert bool(led.search(text)) == bool(behind.search(text)), text


def test_any_of_matches_where_the_alternation_does():
    patterns = [whole_word("tensor", r"\("), r"\.forward\b(?!\s*\()", r"""forward["'](?<=["']forward["'])""",
                r"vars\(", "__call__"]
    alternation = re.compile("|".join(f"(?:{p})" for p in patterns))
    anyof = AnyOf(patterns)
    for text in _texts(5000, 7):
        assert bool(anyof.search(text)) == bool(alternation.search(text)), text


def test_every_search_built_at_import_compiles():
    """AnyOf compiles at its first search: search each one the package's modules build."""
    seen = 0
    for info in pkgutil.walk_packages(flake8_torchcopy.__path__, "flake8_torchcopy."):
        if ".verify" in info.name or info.name.endswith("__main__"):
            continue  # the verifier needs torch at import; it builds no search
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            searches = [value] if isinstance(value, AnyOf) else []
            searches += [getattr(value, "found_in", None).__self__] if isinstance(
                getattr(getattr(value, "found_in", None), "__self__", None), AnyOf) else []
            for search in searches:
                assert search.search("") is None
                seen += 1
    assert seen >= 4  # the module-level ones at least (layouts, hooks, consumers, exec/eval)
