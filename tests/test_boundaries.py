"""The layers meet where the design says: rules see the analysis only through ``Context``.

A rule module imports nothing of the package but ``context`` (by duck typing: the ``ctx``
argument), ``finding`` (what a fix is), ``base`` and ``_common``; the analysis imports no
rule, calls none (its walker calls a visitor's hooks) and builds no finding.  Read from the
source, so a new import that crosses a boundary fails here."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "flake8_torchcopy"
# and textsearch: how a rule's trigger words are searched (text, no analysis)
RULE_MAY_IMPORT = {"finding", "analysis.context", "rules.base", "rules._common", "rules", "textsearch"}


def _package_imports(path: Path):
    """The package modules ``path`` imports (dotted, relative to the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = path.relative_to(PACKAGE).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(here[:len(here) - node.level + 1])
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("flake8_torchcopy"):
                target = node.module[len("flake8_torchcopy."):]
            else:
                continue
            yield target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("flake8_torchcopy."):
                    yield alias.name[len("flake8_torchcopy."):]


def test_rules_import_only_context_finding_base_and_common():
    offenders = {}
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        bad = sorted(set(_package_imports(path)) - RULE_MAY_IMPORT)
        # and a rule's own parts, split out of it (rules/_trc112_moves.py for trc112_*.py and
        # for the other parts of trc112, rules/_trc112_chain.py)
        bad = [b for b in bad if not b.startswith(f"rules._{path.stem.lstrip('_').split('_')[0]}_")]
        if path.name == "__init__.py":
            bad = [b for b in bad if b != "rules.base"]
        if bad:
            offenders[path.name] = bad
    assert not offenders, offenders


def test_the_analysis_imports_no_rule():
    for path in sorted((PACKAGE / "analysis").glob("*.py")):
        assert not [m for m in _package_imports(path) if m.startswith("rules")], path.name


def test_the_analysis_builds_no_finding():
    """Findings and the unsafe policy are the engine's (:mod:`flake8_torchcopy.rule_runner`):
    the analysis reports to a sink (:mod:`flake8_torchcopy.analysis.sink`)."""
    for path in sorted((PACKAGE / "analysis").glob("*.py")):
        assert not [m for m in _package_imports(path) if m == "finding"], path.name


#: what only a rule object has: the analysis reads none of it (a walker calls its visitor's hooks)
RULE_ATTRIBUTES = {"check", "node_types", "triggers"}
RULE_NAMES = {"rule", "rules"}


def _rule_uses(text: str):
    """Where the code handles rule objects: a parameter or name ``rule``/``rules``, or a read
    of an attribute only rules have (``.check``, ``.node_types``, ``.triggers``)."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.arg) and node.arg in RULE_NAMES:
            yield f"parameter {node.arg!r} (line {node.lineno})"
        elif isinstance(node, ast.Name) and node.id in RULE_NAMES:
            yield f"name {node.id!r} (line {node.lineno})"
        elif isinstance(node, ast.Attribute) and node.attr in RULE_ATTRIBUTES:
            yield f".{node.attr} (line {node.lineno})"


def test_the_analysis_calls_no_rule():
    """Dispatch to the rules is the engine's (:mod:`flake8_torchcopy.rule_runner`): the walker
    passes each node to the hook of a :class:`~flake8_torchcopy.analysis.visitor.Visitor`
    and takes no rules."""
    offenders = {}
    for path in sorted((PACKAGE / "analysis").glob("*.py")):
        found = list(_rule_uses(path.read_text(encoding="utf-8")))
        if found:
            offenders[path.name] = found
    assert not offenders, offenders


def test_the_rule_use_reader_sees_dispatch():
    """The check above can fail: the dispatch the walker once did is flagged."""
    old = (
        "class Evaluator:\n"
        "    def __init__(self, source, rules):\n"
        "        for rule in rules:\n"
        "            for t in rule.node_types:\n"
        "                self.dispatch.setdefault(t, []).append(rule)\n"
        "    def ev(self, node):\n"
        "        for r in self.dispatch.get(type(node), ()):\n"
        "            r.check(node, self.ctx)\n"
    )
    found = list(_rule_uses(old))
    assert "parameter 'rules' (line 2)" in found
    assert ".node_types (line 4)" in found and ".check (line 8)" in found
    assert not list(_rule_uses("def ev(self, node):\n    self.hooks.get(type(node))(node, self.ctx)\n"))


def test_the_import_reader_sees_imports():
    """The checks above can fail: they find the imports these very patterns would flag."""
    found = set(_package_imports(PACKAGE / "rule_runner.py"))
    assert "finding" in found and "analysis.flow" in found


#: files exempt from the size bound: generated tables
LONG_FILES_ALLOWED = {"analysis/torchfacts.py"}
MAX_LINES = 420  # "about 400"


def test_every_module_says_its_job_and_stays_short():
    """Every module opens with a docstring (its one job) and none grows past about 400
    lines: a module that does have to be split along its seams."""
    undocumented, long = [], {}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(PACKAGE).as_posix()
        if not ast.get_docstring(ast.parse(text)):
            undocumented.append(name)
        lines = text.count("\n")
        if lines > MAX_LINES and name not in LONG_FILES_ALLOWED:
            long[name] = lines
    assert not undocumented, undocumented
    assert not long, long


def test_the_rules_legacy_constructors_are_the_analysis_ones():
    """A rule may not import the analysis: its copy of the legacy constructors' names (the
    callees of its function trigger ``Tensor(``) is kept equal to the analysis's here."""
    from flake8_torchcopy.analysis.torchapi import LEGACY_CONSTRUCTORS
    from flake8_torchcopy.rules._common import LEGACY_CONSTRUCTOR_NAMES

    assert LEGACY_CONSTRUCTOR_NAMES == LEGACY_CONSTRUCTORS
