"""TRC103 on ``self.X.clone().detach()`` of an integer or bool buffer the class registers: the
clone records no node (an integer tensor cannot require grad), so the report would be wrong
(mmpretrain 1.2.0 models/heads/itc_head.py:100, ``self.idx_queue``, eleventh round)."""
import ast
import textwrap

import pytest
import torch
from torch import nn

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis.intbuffers import integral

# mmpretrain 1.2.0 mmpretrain/models/heads/itc_head.py:41-100 (trimmed)
ITC = """
import torch
from torch import nn

class ITCHead(nn.Module):
    def __init__(self, embed_dim, queue_size=57600):
        super().__init__()
        self.register_buffer('image_queue', torch.randn(embed_dim, queue_size))
        self.register_buffer('idx_queue', torch.full((1, queue_size), -100))
        self.register_buffer('queue_ptr', torch.zeros(1, dtype=torch.long), persistent=False)
        self.image_queue = nn.functional.normalize(self.image_queue, dim=0)

    def loss(self, img_feats_m, idx):
        img_feats_all = torch.cat([img_feats_m.t(), self.image_queue.clone().detach()], dim=1)
        idx_all = torch.cat([idx.t(), self.idx_queue.clone().detach()], dim=1)
        ptr = int(self.queue_ptr.clone().detach())
        self.idx_queue[:, ptr:ptr + 2] = idx.T
        self.queue_ptr[0] = ptr
        return img_feats_all, idx_all
"""


def _codes(source):
    return sorted((f.line, f.code) for f in lint_source(textwrap.dedent(source)))


def test_itc_head_integer_queue_is_quiet_the_float_one_reported():
    assert _codes(ITC) == [(14, "TRC103")]


@pytest.mark.parametrize("store", [
    "\ndef reset(head):\n    head.idx_queue = torch.randn(1, 3, requires_grad=True)\n",
    "\ndef reset(head):\n    head.idx_queue.data = torch.randn(1, 3)\n",
    "\ndef reset(head):\n    head.idx_queue.set_(torch.randn(1, 3))\n",
    "\ndef reset(head):\n    setattr(head, 'idx_queue', torch.randn(1, 3))\n",
    "\ndef reset(head):\n    head._buffers['idx_queue'] = torch.randn(1, 3)\n",
    "\ndef reset(head):\n    del head.idx_queue\n",
    "\nclass Sub(ITCHead):\n    def __init__(self):\n        super().__init__(3)\n"
    "        self.register_buffer('idx_queue', torch.randn(1, 3))\n",
])
def test_anything_else_done_to_the_name_keeps_the_report(store):
    assert _codes(ITC + store) == [(14, "TRC103"), (15, "TRC103")]


def test_not_self_or_not_registered_keeps_the_report():
    source = """
    import torch
    from torch import nn

    class A(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer('q', torch.full((3,), -1))

        def f(self, other):
            return other.q.clone().detach(), self.p.clone().detach()

        @staticmethod
        def g(self):
            return self.q.clone().detach()

        def h(self):
            self = other_module()
            return self.q.clone().detach()
    """
    assert _codes(source) == [(11, "TRC103"), (11, "TRC103"), (15, "TRC103"), (19, "TRC103")]


INTEGRAL = [
    "torch.full((1, 4), -100)", "torch.full((2,), True)", "torch.zeros(1, dtype=torch.long)",
    "torch.ones(3, dtype=torch.bool)", "torch.empty(2, dtype=torch.uint8)", "torch.arange(5)",
    "torch.arange(1, 9, 2)", "torch.tensor([1, -2, 3])", "torch.tensor(7)", "torch.randn(3).long()",
    "torch.zeros(2, 2, dtype=torch.int32)", "torch.full((2,), 0, dtype=torch.int16)",
]
NOT_INTEGRAL = [
    "torch.full((1, 4), -100.0)", "torch.arange(0.5, 3)", "torch.tensor([])", "torch.tensor([1, 2.5])",
    "torch.zeros(3)", "torch.randn(3)", "torch.full((2,), 1, dtype=torch.float16)", "torch.tensor([True, 1])",
    "torch.arange(n)", "torch.full((2,), fill)", "torch.zeros(1, **kw)",
]


def _qualname(node):
    """The dotted name of ``torch.x.y`` (what the walker resolves), None for anything else."""
    dotted = not any(isinstance(n, ast.Call) for n in ast.walk(node))
    return ast.unparse(node) if dotted and ast.unparse(node).startswith("torch.") else None


@pytest.mark.parametrize("expr", INTEGRAL)
def test_integral_values_are_integral_in_torch(expr):
    assert integral(ast.parse(expr, mode="eval").body, _qualname)
    t = eval(expr, {"torch": torch})
    assert not (t.is_floating_point() or t.is_complex())
    with pytest.raises(RuntimeError):
        t.requires_grad_()  # only floating point and complex tensors can require grad


@pytest.mark.parametrize("expr", NOT_INTEGRAL)
def test_other_values_are_not_read_as_integral(expr):
    assert not integral(ast.parse(expr, mode="eval").body, _qualname)


def test_an_integer_buffer_stays_integral_and_gradless():
    """Module.to(dtype), half(), double() convert floating point tensors only; load_state_dict
    copies into the buffer (assign=True puts the state dict's tensor there, gradless); a clone
    of it in grad mode records no node."""
    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("idx_queue", torch.full((1, 4), -100))

    h = Head()
    for convert in (lambda m: m.half(), lambda m: m.double(), lambda m: m.to(torch.float64),
                    lambda m: m.load_state_dict({"idx_queue": torch.randn(1, 4)}),
                    lambda m: m.load_state_dict({"idx_queue": torch.randn(1, 4)}, assign=True)):
        convert(h)
        with torch.enable_grad():
            c = h.idx_queue.clone()
        assert c.grad_fn is None and not c.requires_grad
