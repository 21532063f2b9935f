"""TRC103 follows the binding every path to the read runs last (``analysis/gradreach.py``).

Found on torch-optimizer 0.3.0 (``sgdw.py:105``, ``swats.py:150``): ``d_p = p.grad.data`` at
the top of a step's loop, ``torch.clone(d_p).detach()`` below it, ``d_p = buf`` later in the
loop: the other binding does not reach the clone, so it records no node.  The torch facts
(in-place arithmetic of grad-free operands keeps a tensor grad-free, ``alpha=`` takes no
tensor, one requiring grad makes it require grad) are checked with torch; the analysis on
code that must be quiet and code that must stay reported.
"""
import textwrap

import pytest
import torch

from flake8_torchcopy import lint_source

W = torch.randn(3, requires_grad=True)


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "div_"])
def test_torch_in_place_arithmetic_of_grad_free_operands_keeps_no_grad(op):
    g = W.detach().clone()
    getattr(g, op)(W.data)
    getattr(g, op)(2)
    assert not g.requires_grad and g.clone().grad_fn is None
    getattr(g, op)(W)  # an operand that requires grad: then it does
    assert g.requires_grad and g.clone().grad_fn is not None


def test_torch_alpha_takes_no_tensor():
    with pytest.raises(TypeError, match="alpha"):
        W.detach().clone().add_(W.data, alpha=torch.tensor(2.0, requires_grad=True))


@pytest.mark.filterwarnings("ignore:Using backward")
def test_torch_grad_data_requires_no_grad():
    p = torch.nn.Parameter(torch.randn(3))
    (p * p).sum().backward(create_graph=True)
    assert p.grad.requires_grad and not p.grad.data.requires_grad
    assert torch.clone(p.grad.data).grad_fn is None


def codes(body):
    return [f.code for f in lint_source("import torch\n" + textwrap.dedent(body))]


QUIET = {
    "rebound later in the loop": """
        def step(params, state, nesterov):
            for p in params:
                d_p = p.grad.data
                if p.grad.is_sparse:
                    raise RuntimeError("sparse")
                if "buf" not in state:
                    buf = state["buf"] = torch.clone(d_p).detach()
                else:
                    buf = state["buf"]
                if nesterov:
                    d_p = d_p.add(buf)
                else:
                    d_p = buf
                p.data.add_(d_p)
        """,
    "grad-free arithmetic in place": """
        def step(params, group):
            for w in params:
                grad = w.grad.data
                if group["wd"] != 0:
                    grad.add_(w.data, alpha=group["wd"])
                buf = torch.clone(grad).detach()
                grad.mul_(1 - group["beta"])
                grad = buf
        """,
    "in a with body": """
        def f(w, ctx):
            p = w.data
            with ctx:
                q = p.clone().detach()
            p = w
            return q
        """,
    "in a try body": """
        def f(w):
            p = w.data
            try:
                q = p.clone().detach()
            except RuntimeError:
                p = w
            return q
        """,
}
_LOOP = """
    def f(ws, w):
        p = w.data
        for v in ws:
            q = p.clone().detach()
            {change}
        return q
    """
REPORTED = {
    "rebound later in a loop around": _LOOP.format(change="p = v"),
    "changed later in a loop around": _LOOP.format(change="p.add_(v)"),
    "in place of an operand with grad": """
        def f(w, v):
            p = w.data
            p.mul_(v)
            q = p.clone().detach()
            p = v
            return q
        """,
    "in place then chained": """
        def f(w, v):
            p = w.data
            p.add_(w.data).requires_grad_()
            q = p.clone().detach()
            p = v
            return q
        """,
    "a nested def changes it": """
        def f(w, v):
            def g():
                p.add_(v)
            p = w.data
            g()
            q = p.clone().detach()
            p = v
            return q
        """,
    "in an except block": """
        def f(w, v):
            p = w.data
            try:
                p = v
                v.foo()
            except RuntimeError:
                q = p.clone().detach()
            p = v
            return q
        """,
    "a walrus in the if test": """
        def f(w, v):
            p = w.data
            if (p := v) is not None:
                q = p.clone().detach()
            return q
        """,
    "only on one branch": """
        def f(w, v, c):
            if c:
                p = w.data
            else:
                p = v
            q = p.clone().detach()
            return q
        """,
    "a parameter not rebound before": """
        def f(p, v):
            q = p.clone().detach()
            p = p.data
            return q
        """,
}


@pytest.mark.parametrize("case", sorted(QUIET))
def test_quiet_where_the_reaching_binding_is_grad_free(case):
    assert "TRC103" not in codes(QUIET[case])


@pytest.mark.parametrize("case", sorted(REPORTED))
def test_reported_where_another_binding_or_change_may_reach(case):
    assert codes(REPORTED[case]).count("TRC103") == 1, REPORTED[case]


# torchattacks 3.5.1 attacks/pgd.py:45-52 (and 17 more attacks): the parameter rebound detached
ATTACK = """
import torch

def forward(self, images, labels):
    images = images.clone().detach().to(self.device)
    labels = labels.clone().detach().to(self.device)
    if self.targeted:
        target_labels = self.get_target_label(images, labels)
    adv_images = images.clone().detach()
    return adv_images
"""


def test_a_parameter_rebound_detached_is_followed():
    found = [(f.line, f.code) for f in lint_source(ATTACK)]
    assert found == [(5, "TRC103"), (6, "TRC103")]  # the parameters' own clones stay reported


def test_attack_with_torch():
    images = torch.randn(2, 3, requires_grad=True)
    images = images.clone().detach().to("cpu")
    assert images.clone().grad_fn is None
