"""Fix safety: a default (safe) fix must hold for every value the code can bind there.

Each class below is a way the evidence for a fix used to be wrong: a receiver that
is not a plain tensor, a binding the walker missed, global state the module may set.
For each, the finding (where it is still right) keeps its fix, marked unsafe; the
look-alike with real evidence keeps a safe fix.  What the fixes change at run time is
checked by tests/test_adversarial.py; here, what the analysis concludes.
"""
import textwrap

import pytest

from flake8_torchcopy import lint_source


def findings(src):
    return {f.code: f for f in lint_source(textwrap.dedent(src).lstrip("\n"))}


def fix_kind(src, code):
    """'safe', 'unsafe', 'none' (reported without a fix: a tensor on some paths only, or
    no exact replacement) or 'quiet' (not reported)."""
    f = findings(src).get(code)
    if f is None:
        return "quiet"
    if f.fix is None:
        return "none"
    return "safe" if f.fix.safe else "unsafe"


CASES = {
    # --- TRC103: the receiver must be a plain tensor
    "clone-detach on a torch factory result": ("TRC103", "safe", """
        import torch
        w = torch.randn(3, requires_grad=True)
        y = w.clone().detach()
        """),
    "clone-detach on a parameter": ("TRC103", "unsafe", """
        import torch
        def f(b):
            return b.clone().detach()
        """),
    "clone-detach on an isinstance-checked value (a subclass may override clone)": ("TRC103", "unsafe", """
        import torch
        def f(b):
            if isinstance(b, torch.Tensor):
                return b.clone().detach()
        """),
    "unbound Tensor.clone": ("TRC103", "quiet", """
        import torch
        t = torch.randn(3)
        y = torch.Tensor.clone(t).detach()
        """),
    "aten clone": ("TRC103", "quiet", """
        import torch
        t = torch.randn(3)
        y = torch.ops.aten.clone(t).detach()
        """),
    "super().clone() in a subclass": ("TRC103", "quiet", """
        import torch
        class T(torch.Tensor):
            def clone(self):
                return super().clone().detach()
        """),
    "clone-detach on an instance of a class of the module": ("TRC103", "quiet", """
        import torch
        class Node:
            def clone(self):
                return self
            def detach(self):
                return self
        y = Node().clone().detach()
        """),
    "clone-detach on a result computed from a parameter": ("TRC103", "unsafe", """
        import torch
        def f(x):
            y = x * 2
            return y.clone().detach()
        """),
    # --- TRC102: x's class and x read twice
    "new_tensor on a plain tensor in a name": ("TRC102", "safe", """
        import torch
        x = torch.zeros(2, dtype=torch.float64)
        t = torch.randn(2)
        y = x.new_tensor(t)
        """),
    "new_tensor on self (a class may define its own new_tensor)": ("TRC102", "unsafe", """
        import torch
        class A:
            def f(self):
                t = torch.randn(2)
                return self.new_tensor(t)
        """),
    "new_tensor on an attribute (a property is read twice)": ("TRC102", "unsafe", """
        import torch
        class A:
            def f(self, holder):
                t = torch.randn(2)
                return holder.buf.new_tensor(t)
        """),
    # --- TRC104: the argument is evaluated twice in the original
    "empty_like copy of a plain tensor in a name": ("TRC104", "safe", """
        import torch
        t = torch.randn(3, requires_grad=True)
        y = torch.empty_like(t).copy_(t)
        """),
    "empty_like copy of a call (runs twice)": ("TRC104", "none", """
        import torch
        it = iter([torch.ones(2), torch.zeros(2)])
        y = torch.empty_like(next(it)).copy_(next(it))
        """),
    "empty_like copy of an RNG call": ("TRC104", "none", """
        import torch
        y = torch.empty_like(torch.randn(3)).copy_(torch.randn(3))
        """),
    "empty_like copy of a parameter (a subclass may override clone)": ("TRC104", "unsafe", """
        import torch
        def f(t):
            return torch.empty_like(t).copy_(t)
        """),
    # --- TRC101: default device, torch.tensor replaced, torch rebound
    "torch.tensor of a factory result": ("TRC101", "safe", """
        import torch
        t = torch.randn(3)
        y = torch.tensor(t)
        """),
    "torch.device entered through an alias": ("TRC101", "unsafe", """
        import torch
        dev = torch.device
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        with dev("meta"):
            f()
        """),
    "torch.device from-imported under another name": ("TRC101", "unsafe", """
        import torch
        from torch import device as D
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        with D("meta"):
            f()
        """),
    "a multi-line with of torch.device": ("TRC101", "unsafe", """
        import torch
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        with (
            torch.device("meta")
        ):
            f()
        """),
    "__enter__ called by hand": ("TRC101", "unsafe", """
        import torch
        cm = torch.device("meta")
        cm.__enter__()
        t = torch.randn(3)
        y = torch.tensor(t)
        """),
    "set_default_tensor_type": ("TRC101", "unsafe", """
        import torch
        torch.set_default_tensor_type(torch.DoubleTensor)
        t = torch.randn(3)
        y = torch.tensor(t)
        """),
    "torch.tensor replaced by assignment": ("TRC101", "unsafe", """
        import torch
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        torch.tensor = lambda x: x
        """),
    "torch.tensor replaced by setattr": ("TRC101", "unsafe", """
        import torch
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        setattr(torch, "tensor", lambda x: x)
        """),
    "torch rebound after the function": ("TRC101", "quiet", """
        import torch
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        class Wrapper:
            pass
        torch = Wrapper()
        """),
    "an imported tensor rebound by a later def": ("TRC101", "quiet", """
        from torch import tensor, randn
        def f():
            t = randn(3)
            return tensor(t)
        def tensor(x):
            return x
        """),
    "the same import twice is no rebinding": ("TRC101", "safe", """
        import torch
        import torch
        def f():
            t = torch.randn(3)
            return torch.tensor(t)
        """),
    # --- bindings the walker missed
    ":= in a comprehension": ("TRC101", "quiet", """
        import torch
        def f(xs):
            t = [1.0, 2.0]
            t = torch.randn(2)
            _ = [(t := x) for x in xs]
            return torch.tensor(t)
        """),
    ":= in an and/or": ("TRC101", "quiet", """
        import torch
        def f(flag):
            t = torch.randn(2)
            flag and (t := [1.0])
            return torch.tensor(t)
        """),
    ":= in a conditional expression": ("TRC101", "quiet", """
        import torch
        def f(flag):
            t = torch.randn(2)
            y = (t := [1.0]) if flag else None
            return torch.tensor(t)
        """),
    "contextlib.suppress swallows before the rebinding": ("TRC101", "none", """
        import contextlib
        import torch
        def f(d):
            t = [1.0]
            with contextlib.suppress(KeyError):
                d["k"]
                t = torch.randn(2)
            return torch.tensor(t)
        """),
    "torch.no_grad never swallows": ("TRC101", "safe", """
        import torch
        def f():
            t = [1.0]
            with torch.no_grad():
                t = torch.randn(2)
            return torch.tensor(t)
        """),
    "return in finally swallows the body's exception": ("TRC101", "none", """
        import torch
        def f(d):
            t = [1.0]
            try:
                d["k"]
                t = torch.randn(2)
            finally:
                return torch.tensor(t)
        """),
    "global on a one-line def": ("TRC101", "quiet", """
        import torch
        t = torch.randn(2)
        def reset(): global t; t = [1.0]
        reset()
        y = torch.tensor(t)
        """),
    "global after a backslash": ("TRC101", "quiet", """
        import torch
        t = torch.randn(2)
        def reset():
            global \\
                t
            t = [1.0]
        reset()
        y = torch.tensor(t)
        """),
    "exec stores at module level": ("TRC101", "quiet", """
        import torch
        t = torch.randn(2)
        exec("t = [1.0]")
        y = torch.tensor(t)
        """),
    "a method called eval is not the builtin": ("TRC101", "safe", """
        import torch
        t = torch.randn(2)
        model = torch.nn.Linear(2, 2)
        model.eval()
        y = torch.tensor(t)
        """),
    "globals() stores in a called function": ("TRC101", "quiet", """
        import torch
        t = torch.randn(2)
        def reset():
            globals()["t"] = [1.0]
        reset()
        y = torch.tensor(t)
        """),
    "a star import may rebind anything": ("TRC101", "quiet", """
        import torch
        t = torch.randn(2)
        from math import *
        y = torch.tensor(t)
        """),
    "an assert proves a tensor only without -O": ("TRC101", "unsafe", """
        import torch
        def f(t):
            assert isinstance(t, torch.Tensor)
            return torch.tensor(t)
        """),
    # --- the class of a result: other tensor operands choose it too
    "a method whose operand may be a subclass": ("TRC101", "unsafe", """
        import torch
        def f(x):
            y = torch.zeros(3).add(x)
            return torch.tensor(y)
        """),
    "copy_ into a fresh buffer from a parameter": ("TRC101", "unsafe", """
        import torch
        def f(x):
            buf = torch.empty(3).copy_(x)
            return torch.tensor(buf)
        """),
    "augmented assignment with a parameter": ("TRC103", "unsafe", """
        import torch
        def f(x):
            acc = torch.zeros(3)
            acc += x
            return acc.clone().detach()
        """),
    # --- TRC110: the transfer's arguments
    "transfer to a literal device": ("TRC110", "safe", """
        import torch
        w = torch.randn(3, requires_grad=True)
        y = w.to("cpu").detach()
        """),
    "transfer to another tensor (its class decides)": ("TRC110", "unsafe", """
        import torch
        def f(ref):
            w = torch.randn(3, requires_grad=True)
            return w.to(ref).detach()
        """),
    "transfer to a device read from a tensor": ("TRC110", "safe", """
        import torch
        w = torch.randn(3, requires_grad=True)
        v = torch.zeros(2)
        y = w.to(v.device).detach()
        """),
    # --- TRC112: what the factory gets
    "a dtype keyword that is not a known dtype": ("TRC112", "none", """
        import torch
        x = torch.eye(3).to(dtype=torch.uint16)
        """),
    "a factory under a default device": ("TRC112", "unsafe", """
        import torch
        with torch.device("meta"):
            x = torch.ones(4).to("cpu")
        """),
    "a replaced factory": ("TRC112", "unsafe", """
        import torch
        torch.zeros = print
        x = torch.zeros(4).to("cpu")
        """),
    "set_default_dtype sets no device": ("TRC112", "safe", """
        import torch
        torch.set_default_dtype(torch.float64)
        x = torch.ones(4).to("cuda")
        """),
    "a device name spelled in pieces": ("TRC101", "unsafe", """
        import torch
        getattr(torch, "set_" + "default_device")("cpu")
        t = torch.randn(3)
        y = torch.tensor(t)
        """),
    # --- TRC201: a handler relies on the error
    "view under except RuntimeError": ("TRC201", "unsafe", """
        import torch
        def f(x):
            b, n, c = x.shape
            y = x.transpose(1, 2)
            try:
                return y.view(b, -1)
            except RuntimeError:
                return None
        """),
    "view under a bare except": ("TRC201", "unsafe", """
        import torch
        def f(x):
            b, n, c = x.shape
            y = x.transpose(1, 2)
            try:
                return y.view(b, -1)
            except:
                return None
        """),
    "view under except ValueError": ("TRC201", "safe", """
        import torch
        def f(x):
            b, n, c = x.shape
            y = x.transpose(1, 2)
            try:
                return y.view(b, -1)
            except ValueError:
                return None
        """),
    "view under except TypeError": ("TRC201", "safe", """
        import torch
        def f(x):
            b, n, c = x.shape
            y = x.transpose(1, 2)
            try:
                return y.view(b, -1)
            except TypeError:
                return None
        """),
    # --- TRC107: numpy raises a TypeError (bfloat16) or a RuntimeError (requires grad) a handler may rely on
    "numpy round trip under except TypeError": ("TRC107", "unsafe", """
        import torch
        def f():
            t = torch.ones(3, dtype=torch.bfloat16)
            try:
                return torch.tensor(t.numpy())
            except TypeError:
                return None
        """),
    "numpy round trip under except (ValueError, Exception)": ("TRC107", "unsafe", """
        import torch
        def f():
            t = torch.ones(3)
            try:
                return torch.tensor(t.numpy())
            except (ValueError, Exception):
                return None
        """),
    "numpy round trip under except ValueError": ("TRC107", "safe", """
        import torch
        def f():
            t = torch.ones(3)
            try:
                return torch.tensor(t.numpy())
            except ValueError:
                return None
        """),
    "numpy round trip in a function called under except TypeError": ("TRC107", "unsafe", """
        import torch
        def f():
            t = torch.ones(3)
            return torch.tensor(t.numpy())
        def g():
            try:
                return f()
            except TypeError:
                return None
        """),
    # --- TRC101: torch.tensor raises for an MKLDNN tensor, its rewrite does not
    "torch.tensor under except RuntimeError": ("TRC101", "unsafe", """
        import torch
        def f():
            t = torch.ones(2)
            try:
                return torch.tensor(t)
            except RuntimeError:
                return None
        """),
    "torch.tensor under except KeyError": ("TRC101", "safe", """
        import torch
        def f():
            t = torch.ones(2)
            try:
                return torch.tensor(t)
            except KeyError:
                return None
        """),
    # --- builtins the module shadows after the function (it reads them when called)
    "range shadowed below the function": ("TRC101", "none", """
        import torch
        def f():
            xs = [None] * 2
            for i in range(len(xs)):
                xs[i] = torch.ones(2)
            return torch.tensor(xs[1])
        def range(n):
            return [0]
        """),
    "list shadowed by a global store": ("TRC101", "quiet", """
        import torch
        def f():
            t = torch.ones(2)
            return torch.tensor(list([t])[0])
        def g():
            global list
            list = tuple
        """),
    "the builtins not shadowed": ("TRC101", "safe", """
        import torch
        def f():
            t = torch.ones(2)
            xs = [None] * 2
            for i in range(len(xs)):
                xs[i] = t
            return torch.tensor(list(xs)[1])
        def g(range):
            return range
        """),
    "view under contextlib.suppress": ("TRC201", "unsafe", """
        import contextlib
        import torch
        def f(x):
            b, n, c = x.shape
            y = x.transpose(1, 2)
            with contextlib.suppress(RuntimeError):
                return y.view(b, -1)
        """),
}


@pytest.mark.parametrize("name", list(CASES))
def test_fix_safety(name):
    code, expected, src = CASES[name]
    assert fix_kind(src, code) == expected


def test_keyword_order_is_kept():
    src = """
        import torch
        t = torch.randn(2)
        y = torch.tensor(t, device="cpu", dtype=torch.float64)
        """
    f = findings(src)["TRC101"]
    text = str(f.fix.edits[0].content)
    assert text.index("device=") < text.index("dtype=")


def test_requires_grad_before_a_keyword_with_side_effects_gets_no_fix():
    src = """
        import torch
        t = torch.randn(2)
        y = torch.tensor(t, requires_grad=g(), dtype=h())
        """
    assert fix_kind(src, "TRC101") == "none"


def test_keyword_only_factory_is_fixed_from_its_own_text():
    from flake8_torchcopy import fix_source

    src = "import torch\nx = torch.zeros(size=(3,)).to('cuda')\ny = torch.zeros(3,).to('cuda')\n"
    assert fix_source(src) == ("import torch\nx = torch.zeros(size=(3,), device='cuda')\n"
                               "y = torch.zeros(3, device='cuda')\n")


def test_nested_copies_compose_to_the_simplest_exact_form(tmp_path):
    """torch.tensor(w.clone().detach()): two findings, two fixes, one copy left."""
    import subprocess
    import sys

    from flake8_torchcopy import fix_source

    src = "import torch\nw = torch.randn(3)\ny = torch.tensor(w.clone().detach())\n"
    assert fix_source(src) == "import torch\nw = torch.randn(3)\ny = w.detach().clone()\n"
    (tmp_path / "a.py").write_text(src)
    check = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "--check", "a.py"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert check.stdout.count("TRC10") == 2, check.stdout
    done = subprocess.run([sys.executable, "-m", "flake8_torchcopy", "a.py"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert "Fixed 2 issues" in done.stderr + done.stdout, done.stderr
