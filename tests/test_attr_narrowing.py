"""An attribute an ``assert`` proves a tensor (``assert torch.is_tensor(self.mu_init)``), up
to the first thing that may rebind it (mmrotate ``core/bbox/utils/gmm.py:60,75``:
``self.mu_init.clone().requires_grad_().cuda()`` after the assert, TRC111); and the
look-alikes where it may no longer hold one, which stay quiet."""
import textwrap

import pytest

from flake8_torchcopy import lint_source

torch = pytest.importorskip("torch")

HEAD = "import torch\n"
USE = "self.mu = self.mu_init.clone().requires_grad_().cuda()"


def trc111(body):
    return [f for f in lint_source(HEAD + textwrap.dedent(body)) if f.code == "TRC111"]


def method(*lines, head="class G:\n    def init(self, mu_init, c):\n"):
    return head + "".join(f"        {ln}\n" for ln in lines)


REPORTED = [
    # the mmrotate form: the assert, another assert reading the tensor and other attributes
    method("self.mu_init = mu_init", "if c:",
           "    assert torch.is_tensor(self.mu_init)",
           "    assert self.mu_init.size() == (self.T, 3), 'dims (%i, %i)' % (self.T, 3)",
           "    " + USE),
    method("assert isinstance(self.mu_init, torch.Tensor)", USE),
    method("assert torch.is_tensor(self.mu_init) and self.mu_init.dim() == 3", USE),
    method("assert torch.is_tensor(self.mu_init)", "n = self.mu_init.shape[0] + 1", USE),
    "def f(cfg):\n    assert torch.is_tensor(cfg.w)\n    return cfg.w.clone().requires_grad_().to('cuda')\n",
]

QUIET = [
    # no proof, or not a proof of a tensor
    method(USE),
    method("assert not torch.is_tensor(self.mu_init)", USE),
    method("assert torch.is_tensor(self.mu_init) or c", USE),
    method("assert isinstance(self.mu_init, (torch.Tensor, list))", USE),
    method("assert isinstance(self.mu_init, list)", USE),
    method("if torch.is_tensor(self.mu_init):", "    pass", USE),
    # rebound in between: a store of it, of that attribute elsewhere (an alias), del, a call
    method("assert torch.is_tensor(self.mu_init)", "self.mu_init = c", USE),
    method("assert torch.is_tensor(self.mu_init)", "c.mu_init = None", USE),
    method("assert torch.is_tensor(self.mu_init)", "self.mu_init, n = c", USE),
    method("assert torch.is_tensor(self.mu_init)", "del self.mu_init", USE),
    method("assert torch.is_tensor(self.mu_init)", "self.reset()", USE),
    method("assert torch.is_tensor(self.mu_init)", "print(self)", USE),
    method("assert torch.is_tensor(self.mu_init)", "x = c.f()", USE),
    method("assert torch.is_tensor(self.mu_init)", "n = len(c)", USE),
    # a torch function may hand an argument's __torch_function__ the call (torch.load runs code)
    method("assert torch.is_tensor(self.mu_init)", "n = torch.add(c, 1)", USE),
    # the base name bound anew, or the statement binds it
    method("assert torch.is_tensor(self.mu_init)", "self = c", USE),
    method("assert torch.is_tensor(self.mu_init)", "n = [self for self in c]", USE),
    method("assert torch.is_tensor(self.mu_init)", "if (self := c):", "    pass", USE),
    # the assert in a branch, a loop, or after the use; the use after a compound statement
    method("if c:", "    assert torch.is_tensor(self.mu_init)", USE),
    method("for i in c:", "    " + USE, "    assert torch.is_tensor(self.mu_init)"),
    method("while c:", "    assert torch.is_tensor(self.mu_init)", "    c = i", USE),
    method("assert torch.is_tensor(self.mu_init)", "with c:", "    pass", USE),
    method("assert torch.is_tensor(self.mu_init)", "try:", "    pass", "except Exception:", "    pass", USE),
    # code that runs later, or maybe not at all
    method("assert torch.is_tensor(self.mu_init)", "f = lambda: self.mu_init.clone().requires_grad_().cuda()"),
    method("assert torch.is_tensor(self.mu_init)", "g = (self.mu_init.clone().requires_grad_().cuda() for _ in c)"),
    method("assert torch.is_tensor(self.mu_init)", "m = c and self.mu_init.clone().requires_grad_().cuda()"),
    method("assert torch.is_tensor(self.mu_init)", "def later():",
           "    return self.mu_init.clone().requires_grad_().cuda()"),
    # another function's body does not see the assert
    method("assert torch.is_tensor(self.mu_init)") + "    def other(self):\n        " + USE + "\n",
    # other code runs at an await
    method("assert torch.is_tensor(self.mu_init)", "await c", USE,
           head="class G:\n    async def init(self, mu_init, c):\n"),
    # the module may set attributes where the text does not show it
    "def put(o):\n    setattr(o, 'mu_init', 1)\n" + method("assert torch.is_tensor(self.mu_init)", USE),
]


@pytest.mark.parametrize("body", REPORTED)
def test_reported(body):
    (finding,) = trc111(body)
    assert "is not a leaf when it moves" in finding.message
    assert finding.fix is None or finding.fix.applicability == "unsafe"


@pytest.mark.parametrize("body", QUIET)
def test_quiet(body):
    assert trc111(body) == []


def test_a_named_tensor_is_still_narrowed_by_its_name():
    body = method("x = self.mu_init", "assert torch.is_tensor(x)", "y = x.clone().requires_grad_().cuda()")
    assert len(trc111(body)) == 1


# --- what torch does ----------------------------------------------------------------

class Holder:
    pass


def test_the_asserts_prove_a_tensor_of_some_class():
    """``torch.is_tensor`` and ``isinstance(_, torch.Tensor)`` agree, for subclasses too
    (a Parameter): the attribute holds a tensor, not a plain one (the fix stays unsafe)."""
    for value in (torch.zeros(2), torch.nn.Parameter(torch.zeros(2)), [1.0], None):
        h = Holder()
        h.mu_init = value
        assert torch.is_tensor(h.mu_init) == isinstance(h.mu_init, torch.Tensor)


def test_flagged_then_moved_is_no_leaf():
    """``x.clone().requires_grad_()`` moved to another device (meta stands in for CUDA) is no
    leaf: its ``.grad`` stays None, the gradient goes to the host clone."""
    h = Holder()
    h.mu_init = torch.randn(3)
    moved = h.mu_init.clone().requires_grad_().to("meta")
    assert not moved.is_leaf and moved.grad_fn is not None
    assert h.mu_init.clone().to("meta").requires_grad_().is_leaf
