"""Random cases of an elementwise op of a permuted tensor ``x`` with a second operand built
from a parameter ``y``, shared by the broadcast layout tests: each case is analysed and run
with torch, and the analysis's claims are compared with what torch does."""
import random

from probe import analysed
from test_layout_rules import _ints, nonone, trc201


def cases(others, ops, seed, count):
    """``(head, op, y)``: a function ``f(y)`` that permutes a random 3-d ``x``, an op of ``x``
    with one of ``others`` (``(operand, output dim y's one dim lands in)``), and the ``y`` to
    call it with: of size 1 or the matching size, contiguous or strided."""
    rnd = random.Random(seed)
    for _ in range(count):
        shape = [rnd.choice([2, 3, 4]) for _ in range(3)]
        perm = rnd.sample(range(3), 3)
        other, dim = rnd.choice(others)
        n = rnd.choice([1, [shape[p] for p in perm][dim]])
        y = rnd.choice([f"torch.randn({n})", f"torch.randn({2 * n})[::2]"])
        op = rnd.choice(ops).format(o=other)
        head = (f"import torch\n\n\ndef f(y):\n    x = torch.randn({', '.join(map(str, shape))})"
                f".permute({', '.join(map(str, perm))})\n")
        yield head, op, y


def claimed_layouts_are_torchs(found):
    """Assert that each layout the analysis claims for the op's output is torch's; the number
    of outputs it claims one for."""
    claimed = 0
    for head, op, y in found:
        src = head + f"    return probe({op})\n\n\nf({y})\n"
        seen = []
        exec(compile(src, "<case>", "exec"), {"probe": lambda v, seen=seen: seen.append(v) or v})
        (value,), (real,) = analysed(src), seen
        if value.sizes is None or value.strides is None:
            continue
        claimed += 1
        assert _ints(value.sizes) == tuple(real.shape), src
        assert nonone(real.shape, _ints(value.strides)) == nonone(real.shape, real.stride()), src
    return claimed


def view_raises(src):
    """Does running ``src`` raise torch's "view size is not compatible" error?"""
    try:
        exec(compile(src, "<case>", "exec"), {})
    except RuntimeError as e:
        return "view size is not compatible" in str(e)
    return False


def views_reported_only_where_torch_raises(found):
    """Assert that ``z.view(-1)`` of the op's output is reported only where torch raises; the
    number reported."""
    reported = 0
    for head, op, y in found:
        src = head + f"    z = {op}\n    return z.view(-1)\n\n\nf({y})\n"
        report = bool(trc201(src))
        assert view_raises(src) or not report, src
        reported += report
    return reported
