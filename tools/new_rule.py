"""Scaffold a new rule: ``python tools/new_rule.py TRC113 name-in-kebab-case [--no-fix]``.

Writes ``flake8_torchcopy/rules/trc113_name_in_kebab_case.py`` (a skeleton with TODOs),
registers it in ``RULE_MODULES`` (``flake8_torchcopy/rules/__init__.py``) and, unless
``--no-fix``, adds its LibCST codemod command (``TRC113Command`` in
``flake8_torchcopy/codemods.py``), each in code order.  What is left by hand: the rule
module and ``CHANGELOG.md``; then ``python tools/docgen.py`` writes the rule's docs page
and the README's rules table.  See CONTRIBUTING.md, "Adding a rule".
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import List, Optional

ROOT = Path(__file__).resolve().parent.parent

TEMPLATE = '''"""{code}: TODO what it finds; what to use instead."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._common import code, hole, plain_tensor, replace_fix, short
from .base import Example, Rule

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.context import Context


class {cls}(Rule):
    code = "{code}"
    name = "{name}"
    summary = "TODO `the idiom`: use `the replacement`"
    # the README's rules table: what it finds, the fix, and when the fix is safe
    table_finds = "TODO `the idiom`"
    table_fix = "TODO `the replacement`"
    table_safety = "TODO safe when ..."
    rationale = (
        "TODO why it matters: what is slow, misleading or crashes, with the measurement."
    )
    fix_safety = (
        "TODO when the fix is safe (the exact equivalence, measured) and when it is unsafe."
    )
    # substrings a file must contain (all of one group) for the rule to possibly match
    triggers = (("TODO",),)

    VALID = (
        "import torch\\nx = torch.randn(3)\\ny = x.clone()\\n",
    )
    INVALID = (
        Example(
            code="import torch\\nx = torch.randn(3)\\ny = TODO(x)\\n",
            fixed={fixed},
            verify=("TODO(t)", "t.detach().clone()"),
        ),
    )

    def check(self, node: ast.Call, ctx: Context) -> None:
        # TODO match the call; report only what the data flow proves (ctx.is_tensor, plain_tensor)
        func = node.func
        if not (isinstance(func, ast.Name) and func.id == "TODO") or len(node.args) != 1:
            return
        t = node.args[0]
        if not ctx.is_tensor(t):
            return
        replacement = code(hole(ctx, t, atom=True), ".detach().clone()")
        fix = {fix_expr}
        ctx.report(self.code, node, f"TODO message about {{short(ctx.text(t), 24)}}", fix)


RULE = {cls}()
'''

COMMAND = '''class {code}Command(RuleCommand):
    """Apply the fix of {code} ({name}) only."""

    CODES = ("{code}",)
'''


def module_name(code: str, name: str) -> str:
    return f"{code.lower()}_{name.replace('-', '_')}"


def render_module(code: str, name: str, fix: bool = True) -> str:
    cls = "".join(part.capitalize() for part in name.split("-"))
    return TEMPLATE.format(
        code=code, name=name, cls=cls,
        fixed='"import torch\\nx = torch.randn(3)\\ny = x.detach().clone()\\n"' if fix else "None",
        fix_expr=('replace_fix(ctx, node, replacement, plain_tensor(ctx, t), f"Replace with `{short(replacement)}`")'
                  if fix else "None  # no automatic fix"))


def register(init_text: str, module: str) -> str:
    """``rules/__init__.py`` with ``module`` added to ``RULE_MODULES`` in code order."""
    m = re.search(r"RULE_MODULES = \(\n((?:    \"[^\"]+\",\n)*)\)", init_text)
    if m is None:
        raise SystemExit("new_rule: RULE_MODULES not found in flake8_torchcopy/rules/__init__.py")
    names = re.findall(r'"([^"]+)"', m.group(1))
    if module in names:
        raise SystemExit(f"new_rule: {module} is already registered")
    names = sorted(names + [module])
    body = "".join(f'    "{n}",\n' for n in names)
    return init_text[:m.start(1)] + body + init_text[m.end(1):]


def add_command(codemods_text: str, code: str, name: str) -> str:
    """``codemods.py`` with ``{code}Command`` added among the per-rule commands, in code order."""
    if f"class {code}Command(" in codemods_text:
        raise SystemExit(f"new_rule: {code}Command exists already")
    existing = re.findall(r"^class (TRC\d+)Command\(RuleCommand\):", codemods_text, re.M)
    later = [c for c in existing if c > code]
    new = COMMAND.format(code=code, name=name)
    if later:
        at = codemods_text.index(f"class {later[0]}Command(RuleCommand):")
        return codemods_text[:at] + new + "\n\n" + codemods_text[at:]
    last = codemods_text.index(f"class {existing[-1]}Command(RuleCommand):")
    end = codemods_text.index("\n\n", last)
    return codemods_text[:end] + "\n\n\n" + new.rstrip("\n") + codemods_text[end:]


def scaffold(root: Path, code: str, name: str, fix: bool = True) -> List[Path]:
    if not re.fullmatch(r"TRC\d{3}", code):
        raise SystemExit(f"new_rule: the code must be TRC and three digits, not {code!r}")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        raise SystemExit(f"new_rule: the name must be kebab-case (like clone-then-detach), not {name!r}")
    package = root / "flake8_torchcopy"
    module = module_name(code, name)
    path = package / "rules" / f"{module}.py"
    if path.exists() or list((package / "rules").glob(f"{code.lower()}_*.py")):
        raise SystemExit(f"new_rule: a module for {code} exists already")
    init = package / "rules" / "__init__.py"
    new_init = register(init.read_text(encoding="utf-8"), module)
    written = [path, init]
    codemods = package / "codemods.py"
    new_codemods = add_command(codemods.read_text(encoding="utf-8"), code, name) if fix else None
    path.write_text(render_module(code, name, fix), encoding="utf-8")
    init.write_text(new_init, encoding="utf-8")
    if new_codemods is not None:
        codemods.write_text(new_codemods, encoding="utf-8")
        written.append(codemods)
    return written


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/new_rule.py", description=__doc__.splitlines()[0])
    p.add_argument("code", help="the new rule's code, e.g. TRC113")
    p.add_argument("name", help="its name in kebab-case, e.g. stack-of-clones")
    p.add_argument("--no-fix", action="store_true", help="the rule only reports (no fix, no codemod command)")
    args = p.parse_args(argv)
    for path in scaffold(ROOT, args.code.upper(), args.name, fix=not args.no_fix):
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)
    print("next: fill in the TODOs of the rule module, add a CHANGELOG.md line, then run "
          "python tools/docgen.py (its docs page and the README table)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
