"""Run every rule example before and after its fix with torch on CPU and compare results.

Safe fixes must agree on values, dtype, device, shape, requires_grad and the
gradients reaching each input, or the original must raise where the fix doesn't.
Unsafe fixes must show at least one difference, or say in their note why they
are unsafe anyway.  (The full verifier, ``torchcopy-verify``, tries many more cases.)
"""
import itertools
import re
import warnings

import pytest

torch = pytest.importorskip("torch")

from flake8_torchcopy.rules import ALL_RULES  # noqa: E402

EXAMPLES = [(r.code, i, ex) for r in ALL_RULES for i, ex in enumerate(r.INVALID)]
VERIFIED = [t for t in EXAMPLES if t[2].verify]
MODULE_LEVEL = [t for t in EXAMPLES if t[2].fixed and "def " not in t[2].code]

DTYPES = (torch.float32, torch.float64, torch.float16, torch.int64, torch.int32)
SHAPES = {None: [(3,), (2, 3), (2, 3, 4)], 0: [()], 2: [(2, 3), (3, 1)], 3: [(2, 3, 4), (2, 1, 3)]}


def _spec(spec: str):
    rank = re.search(r"rank=(\d)", spec or "")
    return (int(rank.group(1)) if rank else None), "float" in (spec or "")


def _inputs(names, specs):
    """Cases: dtype x shape x layout x requires_grad, the same for every input."""
    rank, float_only = _spec(next((specs.get(n) for n in names if specs.get(n)), ""))
    for dtype, shape, transposed, grad in itertools.product(
            DTYPES, SHAPES[rank], (False, True), (False, True)):
        if grad and not dtype.is_floating_point or float_only and not dtype.is_floating_point:
            continue
        if transposed and len(shape) < 2:
            continue

        def make(seed, dtype=dtype, shape=shape, transposed=transposed, grad=grad):
            g = torch.Generator().manual_seed(seed)
            out = {}
            for k, n in enumerate(names):
                base = (torch.randn(shape[::-1] if transposed else shape, generator=g) * 5)
                t = base.to(dtype)
                if transposed:
                    t = t.transpose(0, -1)
                out[n] = t.requires_grad_() if grad else t
            return out
        yield f"{dtype} {shape} {'T' if transposed else 'C'} rg={grad}", make


def _run(expr, env):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(expr, {"torch": torch}, env)


def _compare(before, after, names, specs):
    """None when all cases agree, else a description of the first difference."""
    for case, make in _inputs(names, specs):
        env_b, env_a = make(0), make(0)
        try:
            out_b = _run(before, env_b)
        except Exception:
            continue  # the original raises: the fix may do anything better
        out_a = _run(after, env_a)
        for prop in ("dtype", "device", "shape", "requires_grad"):
            if getattr(out_b, prop) != getattr(out_a, prop):
                return f"{case}: {prop} {getattr(out_b, prop)} != {getattr(out_a, prop)}"
        if not torch.equal(out_b.detach(), out_a.detach()):
            return f"{case}: values differ"
        if out_b.requires_grad:
            w = torch.randn(out_b.shape, generator=torch.Generator().manual_seed(1)).to(out_b.dtype)
            (out_b * w).sum().backward()
            (out_a * w).sum().backward()
            for n in names:
                gb, ga = env_b[n].grad, env_a[n].grad
                if (gb is None) != (ga is None) or gb is not None and not torch.equal(gb, ga):
                    return f"{case}: gradient of {n} differs"
    return None


def _free_names(expr):
    return sorted(set(re.findall(r"(?<![\w.])([a-z_]\w*)(?![\w(])", expr)) - {"torch", "dtype", "device"})


@pytest.mark.parametrize("code,i,ex", VERIFIED, ids=[f"{c}-{i}" for c, i, _ in VERIFIED])
def test_fix_executes_equivalently(code, i, ex):
    before, after = ex.verify
    names = _free_names(before)
    assert names, before
    diff = _compare(before, after, names, ex.inputs)
    if ex.unsafe:
        assert diff is not None or ex.note, "an unsafe fix with no difference must say why"
    else:
        assert diff is None, diff


def test_unsafe_round_trip_really_changes_dtype():
    t = torch.randn(3, dtype=torch.float64)
    assert torch.tensor(t.tolist()).dtype == torch.float32 != t.detach().clone().dtype


@pytest.mark.parametrize("code,i,ex", MODULE_LEVEL, ids=[f"{c}-{i}" for c, i, _ in MODULE_LEVEL])
def test_module_example_runs_the_same(code, i, ex):
    results = []
    for src in (ex.code, ex.fixed):
        torch.manual_seed(0)
        ns = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(src, f"<{code}>", "exec"), ns)
        results.append({k: v for k, v in ns.items() if isinstance(v, torch.Tensor)})
        torch.set_default_device(None) if hasattr(torch, "set_default_device") else None
    before, after = results
    assert before.keys() == after.keys()
    for k in before:
        b, a = before[k], after[k]
        assert (b.dtype, b.device, b.shape, b.requires_grad) == (a.dtype, a.device, a.shape, a.requires_grad), k
        assert torch.equal(b.detach(), a.detach()), k


def test_the_view_really_raises_and_reshape_does_not():
    """TRC201's first example: the message's claim, checked on real shapes."""
    b, n, heads, d = 2, 3, 4, 5
    out = torch.randn(b, heads, n, d)
    with pytest.raises(RuntimeError):
        out.transpose(1, 2).view(b, n, heads * d)
    assert out.transpose(1, 2).reshape(b, n, heads * d).shape == (b, n, heads * d)
    # "unless n == 1 or heads == 1"
    torch.randn(b, heads, 1, d).transpose(1, 2).view(b, 1, heads * d)
    torch.randn(b, 1, n, d).transpose(1, 2).view(b, n, d)
