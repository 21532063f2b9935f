"""Pieces several rules share: keyword handling, replacements built from the original
expressions (:func:`hole`, :func:`code`), and the ``detach().clone()`` replacement."""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple, Union, cast

from ..finding import SAFE, UNSAFE, Edit, Fix, Hole, Replacement

#: the legacy constructors (``torch.Tensor``, ``torch.FloatTensor``...): the analysis's
#: ``torchapi.LEGACY_CONSTRUCTORS``, which a rule may not import (a test keeps them equal)
LEGACY_CONSTRUCTOR_NAMES = frozenset("""
    Tensor FloatTensor DoubleTensor HalfTensor BFloat16Tensor LongTensor IntTensor
    ShortTensor CharTensor ByteTensor BoolTensor""".split())


def keywords(call: ast.Call) -> Optional[Dict[str, ast.keyword]]:
    """Keyword arguments by name; None if there is a ``**kwargs``."""
    out = {}
    for k in call.keywords:
        if k.arg is None:
            return None
        out[k.arg] = k
    return out


def short(text: str, limit: int = 48) -> str:
    """Code for a message, on one line and whole: a user copies suggested code from the
    message, so it is never cut (``limit`` is kept for callers; nothing is dropped); the
    comments of its lines are left out (on one line they would comment out the rest)."""
    if "#" in text and "\n" in text:
        text = "\n".join(_uncommented(line) for line in text.split("\n"))
    return " ".join(text.split())


def _uncommented(line: str) -> str:
    """``line`` up to its comment: a ``#`` outside a string literal (a line whose quotes it
    cannot follow, with a triple quote, is kept whole)."""
    if '"""' in line or "\'\'\'" in line:
        return line
    quote, i = "", 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1  # the escaped character, a quote too
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
        i += 1
    return line


def hole(ctx, node: ast.AST, atom: bool = False) -> Replacement:
    """The original expression ``node``, kept as it is written (comments included);
    with ``atom``, parenthesized unless it binds tighter than ``.attr``."""
    text = ctx.atom_text(node) if atom else ctx.text(node)
    paren = text != ctx.text(node)
    return Replacement(text, "{h0}", (Hole(ctx.start(node), ctx.end(node), paren),))


def code(*parts: Union[str, Replacement]) -> Replacement:
    """Concatenate literal code and replacements into one replacement."""
    texts: List[str] = []
    templates: List[str] = []
    holes: List[Hole] = []
    for part in parts:
        texts.append(str(part))
        if isinstance(part, Replacement):
            names = {f"h{i}": f"{{h{len(holes) + i}}}" for i in range(len(part.holes))}
            templates.append(part.template.format(**names))
            holes.extend(part.holes)
        else:
            templates.append(part)
    return Replacement("".join(texts), "".join(templates), tuple(holes))


def copy_expression(ctx, tensor: ast.AST, kw: Dict[str, ast.keyword],
                    dtype_default: Union[str, Replacement, None] = None,
                    device_default: Union[str, Replacement, None] = None) -> Optional[Replacement]:
    """``t.detach().clone()`` or ``t.detach().to(dtype=…, device=…, copy=True)`` for
    ``torch.tensor(t, **kw)``; None when no exact one-call replacement exists."""
    if set(kw) - {"dtype", "device", "requires_grad"}:
        return None  # pin_memory=, or an unexpected keyword
    if not kw and dtype_default is None and device_default is None and fresh_detached_copy(tensor):
        # torch.tensor(w.clone().detach()): already a fresh detached copy, which nothing else
        # holds; a second copy is not needed (TRC103 then swaps the inner pair)
        return hole(ctx, tensor)
    names = list(kw)
    if "requires_grad" in names and names[-1] != "requires_grad" \
            and not all(is_simple(k.value) or isinstance(k.value, ast.Constant) for k in kw.values()):
        return None  # requires_grad= is evaluated before a later keyword with side effects
    order = [n for n in names if n in ("dtype", "device")]
    order += [n for n in ("dtype", "device") if n not in order]  # defaults last
    conv: list = []
    for name in order:
        default = dtype_default if name == "dtype" else device_default
        value = hole(ctx, kw[name].value) if name in kw else default
        if value is not None:
            conv += [", " if conv else "", f"{name}=", value]
    parts: List[Union[str, Replacement]] = [hole(ctx, tensor, atom=True)]
    parts += [".detach().to(", *conv, ", copy=True)"] if conv else [".detach().clone()"]
    rg = kw.get("requires_grad")
    if rg is not None:
        v = rg.value
        if isinstance(v, ast.Constant) and v.value is True:
            parts.append(".requires_grad_()")
        elif not (isinstance(v, ast.Constant) and v.value is False):
            parts += [".requires_grad_(", hole(ctx, v), ")"]
    return code(*parts)


def replace_fix(ctx, node: ast.AST, replacement: Replacement, safe: bool, message: str) -> Optional[Fix]:
    """Replace the whole node; refused when that would drop a comment (one outside the
    original expressions the replacement keeps)."""
    start, end = ctx.start(node), ctx.end(node)
    dropped, pos = [], start
    for h in sorted(replacement.holes, key=lambda h: h.start):
        dropped.append(ctx.source[pos:h.start])
        pos = max(pos, h.end)
    dropped.append(ctx.source[pos:end])
    if any("#" in text for text in dropped):
        return None
    return Fix((Edit(start, end, replacement),), SAFE if safe else UNSAFE, message)


def copy_fix_safety(ctx, tensor: ast.AST, kind: str, kw: Optional[Dict[str, ast.keyword]] = None) -> bool:
    """A ``torch.tensor``-style copy fix is safe only on data-flow evidence that ``tensor``
    is a plain tensor on every path, outside TorchScript, in a module that sets no
    default device and does not replace ``torch.tensor``, and not where a handler may catch
    the RuntimeError the original raises for an MKLDNN tensor (``torch.tensor``), a sparse
    compressed or conjugate-view receiver (``new_tensor``), which the rewrite does not; and
    only where the keywords ``kw``, which the rewrite evaluates after ``tensor.detach()``,
    :func:`runs_clean` (``torch.tensor(t, dtype=pick(t))`` with ``pick`` resizing ``t``)."""
    return kind == "tensor" and ctx.fix_caveat(tensor) is None and ctx.fix_blocker is None \
        and not ctx.error_may_be_handled and all(runs_clean(ctx, k.value) for k in (kw or {}).values())


def plain_tensor(ctx, node: ast.AST) -> bool:
    """``node`` is a plain tensor on every path (a receiver a fix may rely on)."""
    return ctx.fix_caveat(node) is None


def is_simple(node: ast.AST) -> bool:
    """A name or attribute chain: safe to evaluate twice."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


#: calls that change no tensor: what :func:`runs_clean` lets an argument call
_CLEAN_CALLS = frozenset({"torch.device", "torch.get_default_dtype"})


def runs_clean(ctx, node: ast.AST) -> bool:
    """May evaluating ``node`` change no tensor?  A rewrite that moves ``t.detach()`` ahead of
    an argument (``t.clone(memory_format=fmt(t)).detach()`` -> ``t.detach().clone(...)``) fixes
    ``t``'s sizes before the argument runs: a call there may resize ``t`` in place
    (``t.unsqueeze_(0)``, ``t.data = ...``) or rebind a name with ``:=``. Constants, names,
    attribute chains (as :func:`is_simple`: a property is taken to have no side effects) and
    ``torch.device(...)`` of such are clean; any other call, ``:=``, ``await`` or ``yield`` not."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if ctx.qualname(n.func) not in _CLEAN_CALLS:
                return False
        elif isinstance(n, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def args_run_clean(ctx, call: ast.Call) -> bool:
    """Does every argument of ``call`` :func:`run clean <runs_clean>`?  A swap that detaches
    before the call (``clone(...)``, ``.to(...)``) runs its arguments after the detach."""
    return all(runs_clean(ctx, a) for a in list(call.args) + [k.value for k in call.keywords])


def same_expr(a: ast.AST, b: ast.AST) -> bool:
    """Do ``a`` and ``b`` read the same (``ast.dump`` equal: fields, not positions)?  Compared
    node by node, with no text built."""
    pairs: List[Tuple[object, object]] = [(a, b)]
    while pairs:
        x, y = pairs.pop()
        if x.__class__ is not y.__class__:
            return False
        if isinstance(x, ast.AST):
            pairs.extend((getattr(x, f, None), getattr(y, f, None)) for f in x._fields)
        elif isinstance(x, list):
            if len(x) != len(cast(list, y)):
                return False
            pairs.extend(zip(x, cast(list, y)))
        elif x != y:
            return False
    return True


def swap_edit(ctx, outer: ast.Call, inner: ast.Call) -> Tuple[Edit, str]:
    """``r.a(A).b()`` -> ``r.b().a(A)`` as one edit that keeps the chain's whitespace and
    comments; also the text of ``(A)``."""
    a_name, a_args = ctx.name_span(inner.func), ctx.args_span(inner)
    b_name, b_args = ctx.name_span(outer.func), ctx.args_span(outer)
    src = ctx.source
    start = ctx.start(outer)
    a_text = src[a_args[0]:a_args[1]]
    swapped = "".join((src[start:a_name[0]], src[b_name[0]:b_name[1]], src[b_args[0]:b_args[1]],
                       src[a_args[1]:b_name[0]], src[a_name[0]:a_name[1]], a_text))
    return Edit(start, ctx.end(outer), swapped, swap=True), a_text


def text_fix(ctx, node: ast.AST, text: str, safe: bool, message: str) -> Optional[Fix]:
    """Replace the whole node with ``text`` (built from the original's own text); refused
    when the node holds a comment, which the new text might misplace."""
    if "#" in ctx.text(node):
        return None
    return Fix((Edit(ctx.start(node), ctx.end(node), text),), SAFE if safe else UNSAFE, message)


def call_with_keyword(ctx, call: ast.Call, keyword_text: str) -> str:
    """The call's own text with ``keyword_text`` (``device="cuda"``) added as its last argument;
    where a comment follows the last argument, before that comment (not into it)."""
    text = ctx.text(call)
    if "#" in text and "\n" in text:
        lines = text[:-1].split("\n")
        k = len(lines) - 1
        while k > 0 and not _uncommented(lines[k]).strip():
            k -= 1  # a comment or a blank line before the closing parenthesis
        code = _uncommented(lines[k])
        if code != lines[k] or k < len(lines) - 1:
            head = code.rstrip()
            sep, after = ("", "") if head.endswith("(") else (" ", ",") if head.endswith(",") else (", ", "")
            lines[k] = f"{head}{sep}{keyword_text}{after}{lines[k][len(head):]}"
            return "\n".join(lines) + ")"
    head = text[:-1].rstrip()
    sep = "" if head.endswith("(") else " " if head.endswith(",") else ", "
    return f"{head}{sep}{keyword_text})"


def call_without_keyword(ctx, call: ast.Call, name: str) -> Optional[str]:
    """The call's own text with the keyword ``name`` and its comma taken out."""
    items = list(call.args) + list(call.keywords)
    items.sort(key=lambda n: ctx.start(n))
    idx = next((i for i, k in enumerate(items) if isinstance(k, ast.keyword) and k.arg == name), None)
    if idx is None:
        return None
    src, base = ctx.source, ctx.start(call)
    if idx > 0:
        cut = (ctx.end(items[idx - 1]), ctx.end(items[idx]))
    elif len(items) > 1:
        cut = (ctx.start(items[0]), ctx.start(items[1]))
    else:
        cut = (ctx.start(items[0]), ctx.end(items[0]))
    text = src[base:ctx.start(call) + len(ctx.text(call))]
    return text[:cut[0] - base] + text[cut[1] - base:]


def fresh_detached_copy(node: ast.AST) -> bool:
    """``x.clone().detach()``, ``x.detach().clone()`` or ``torch.clone(x).detach()`` with no
    arguments: a new tensor, detached, that nothing but this expression holds."""
    def plain_call(n: ast.AST, attr: str) -> bool:
        return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == attr
                and not n.keywords and not n.args)
    if plain_call(node, "detach"):
        inner = node.func.value  # type: ignore[attr-defined]
        return plain_call(inner, "clone") or (
            isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "clone" and isinstance(inner.func.value, ast.Name)
            and inner.func.value.id == "torch" and len(inner.args) == 1 and not inner.keywords)
    return plain_call(node, "clone") and plain_call(node.func.value, "detach")  # type: ignore[attr-defined]


def detach_after(node: ast.Call, methods) -> Optional[ast.Call]:
    """The inner call of ``r.m(...).detach()`` with ``m`` in ``methods``, else None."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "detach") or node.args or node.keywords:
        return None
    inner = func.value
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in methods:
        return inner
    return None
