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
from flake8_torchcopy.textsearch import AnyOf, literal_lead, whole_word

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


def _package_searches():
    for info in pkgutil.walk_packages(flake8_torchcopy.__path__, "flake8_torchcopy."):
        if ".verify" in info.name or info.name.endswith("__main__"):
            continue  # the verifier needs torch at import; it builds no search
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            searches = [value] if isinstance(value, AnyOf) else []
            searches += [getattr(value, "found_in", None).__self__] if isinstance(
                getattr(getattr(value, "found_in", None), "__self__", None), AnyOf) else []
            yield from searches


@pytest.mark.parametrize("pattern, lead", [
    (whole_word("exec", r"[ \t]*\("), "exec"), (r"\.data\s*=(?!=)", ".data"), (r"vars\(", "vars("),
    ("ab?c", "a"), ("ab*", "a"), ("ab{2}", "a"), ("a|b", ""), ("(a)|b", ""), ("x[|)]|y", ""), ("[|]x", ""),
    (r"\bx", ""), (r"\w+", ""), ("_(?!\\w)(?:a|b)", "_"), ("forward[\"']", "forward")])
def test_the_literal_lead_begins_every_match(pattern, lead):
    assert literal_lead(pattern) == lead


def test_every_package_search_matches_where_its_patterns_do():
    """Its lead found first (and a pattern compiled only then) changes no answer."""
    texts = list(_texts(3000, 11)) + ["exec(", "x.eval ()", "vars()", "t.data = 1", "f.t_()", "setattr(torch,"]
    for search in _package_searches():
        patterns = [re.compile(p) for p in search._sources]
        for text in texts:
            for pos in (0, 1):
                want = next((m for m in (p.search(text, pos) for p in patterns) if m), None)
                got = search.search(text, pos)
                assert (got and got.span()) == (want and want.span()), (search._sources, text)


def test_every_search_built_at_import_compiles():
    """AnyOf compiles a pattern at its first search that may match: compile each one the
    package's modules build."""
    seen = 0
    for search in _package_searches():
        for p in search._sources:
            re.compile(p)
        assert search.search("") is None
        seen += 1
    assert seen >= 4  # the module-level ones at least (layouts, hooks, consumers, exec/eval)


def test_a_store_at_a_line_start_is_found_where_the_line_led_pattern_found_it():
    """torchstores looks for ``name.f = v`` led by each name, not by every line break."""
    from flake8_torchcopy.analysis import torchstores
    line_led = re.compile(r"\n[ \t]*(?!self\b)(\w+)" + torchstores._STORE.pattern)
    rnd = random.Random(5)
    pieces = ["torch", "F", "self", "xtorch", "torch2", ".", " . ", "ones", "_x", " = ", "==", "=", "\n", "\n  ",
              "\t", "nn.", "functional.", "linalg.", "(", "f"]
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 10)))
        for name in ("torch", "F", "self", "nn"):
            want = name in line_led.findall(text)
            assert torchstores._stored_at_line_start(text, name) == want, (text, name)
