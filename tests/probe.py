"""A rule for the tests that records what the analysis says of each ``probe(...)`` argument,
and the values a run of the same program passes to ``probe``."""
import ast

from flake8_torchcopy import lint_source
from flake8_torchcopy.rules.base import Rule


class Probe(Rule):
    """Records the value the analysis gives the argument of each ``probe(...)`` call."""

    code = "TRC999"
    name = "probe"
    summary = rationale = fix_safety = ""
    triggers = (("probe(",),)

    def __init__(self):
        self.values = []

    def check(self, node, ctx):
        if isinstance(node.func, ast.Name) and node.func.id == "probe" and node.args:
            self.values.append(ctx.value(node.args[0]))


def analysed(src):
    """The analysis's value of each ``probe(...)`` argument of ``src``, in order."""
    probe = Probe()
    lint_source(src, rules=[probe])
    return probe.values


def executed(src):
    """What ``src`` passes to ``probe`` when it runs, in order."""
    seen = []
    exec(compile(src, "<case>", "exec"), {"probe": seen.append})
    return seen
