"""Oddities found by the end-to-end trust check of ``torchcopy-fix`` on the corpora
(safe fixes applied to 26 package copies, 2026-11-25).  No safe fix changed behaviour;
these are output and reporting defects, each reduced from a real site.  They are
``xfail(strict=True)`` while open: each test asserts the wanted behaviour and starts
passing (and so failing the run, to be unmarked) when the defect is fixed."""
import ast

import pytest

from flake8_torchcopy import lint_source
from flake8_torchcopy.engine import fix_source

# mmselfsup/mmselfsup/models/memories/odc_memory.py:160 (TRC112, safe)
INDENTED_CALL = (
    "import torch\n"
    "\n"
    "\n"
    "def f(idx, flag):\n"
    "    if flag:\n"
    "        target = torch.zeros((idx.shape[0], ),\n"
    "                             dtype=torch.int64).cuda()\n"
    "    return target\n"
)


def test_fix_keeps_the_continuation_line_indentation():
    """A plain-text replacement parsed alone by LibCST took its continuation lines for lines of
    a block and indented them by the block's indentation again (20 columns at the site)."""
    new = fix_source(INDENTED_CALL, path="m.py")
    assert new == INDENTED_CALL.replace("dtype=torch.int64).cuda()", 'dtype=torch.int64, device="cuda")')


def test_fix_of_a_module_level_call_keeps_its_continuation_line():
    """At indentation 0 the same replacement was exact (the defect above needed a block)."""
    src = "import torch\n\nt = torch.zeros((3, ),\n              dtype=torch.int64).cuda()\n"
    assert fix_source(src, path="m.py") == src.replace(").cuda()", ', device="cuda")')


# torchattacks/torchattacks/attacks/apgd.py:113-124, avalanche_lib cope.py:279 (TRC110 + TRC112)
FACTORY_MOVE_DETACH = (
    "import torch\n"
    "\n"
    "\n"
    "def f(x):\n"
    "    dev = torch.device('cuda')\n"
    "    return torch.ones(3).to(dev).detach()\n"
)


def test_factory_move_detach_has_both_findings():
    assert sorted(f.code for f in lint_source(FACTORY_MOVE_DETACH, "m.py")) == ["TRC110", "TRC112"]


def test_safe_fixes_do_not_hide_the_host_build():
    """The TRC110 swap is applied first (``.detach().to(dev)``); TRC112 looks through the
    ``.detach()`` of a fresh factory (no graph node, no view), so its fix follows."""
    new = fix_source(FACTORY_MOVE_DETACH, path="m.py")
    assert "return torch.ones(3, device=dev).detach()\n" in new


def test_the_detached_factory_built_on_the_device_is_the_same_tensor():
    torch = pytest.importorskip("torch")
    for dev in ("cpu", torch.device("cpu"), "meta"):
        a, b = torch.ones(3, 2).detach().to(dev).t(), torch.ones(3, 2, device=dev).detach().t()
        assert (a.shape, a.stride(), a.dtype, a.device, a.requires_grad, a._is_view()) == \
            (b.shape, b.stride(), b.dtype, b.device, b.requires_grad, b._is_view())
        if dev != "meta":
            assert torch.equal(a, b)
    t = torch.ones(3).detach()
    assert not t._is_view() and t.detach_() is t  # no view: detach_() of it works


# coqui/mmselfsup-style call with a comment inside the span: no fix (right), but the message
def test_message_does_not_splice_a_comment_into_the_suggestion():
    """The message flattened the call's text, comment included: the rest read as commented out."""
    src = "import torch\n\nx = torch.zeros(\n    3,\n    dtype=torch.int64,  # keep\n).cuda()\n"
    (finding,) = lint_source(src, "m.py")
    assert finding.code == "TRC112" and finding.fix is None
    assert "#" not in finding.message
    suggested = finding.message[len("use "):finding.message.index(" instead of ")]
    call = ast.parse(suggested, mode="eval").body  # copied from the message, it is code
    assert [k.arg for k in call.keywords] == ["dtype", "device"]


# spikingjelly/spikingjelly/activation_based/examples/dsqn/train.py:50 and :83 (TRC112, safe)
LOCAL_DEVICE = (
    "import numpy as np\n"
    "import torch\n"
    "\n"
    "\n"
    "def f(obs, cuda):\n"
    "    device = torch.device('cuda' if cuda else 'cpu')\n"
    "    return torch.tensor(np.expand_dims(obs, 0)).to(device).float() / 256\n"
)


@pytest.mark.xfail(strict=True, reason="verify_fix binds the local `device = torch.device(...)` "
                   "as a tensor input, so `torchcopy-fix --verify` refuses this safe fix")
def test_verify_fix_knows_a_local_torch_device():
    pytest.importorskip("torch")
    from flake8_torchcopy.verify import verify_fix

    new = fix_source(LOCAL_DEVICE, path="m.py")
    assert "device=device)" in new
    assert verify_fix(LOCAL_DEVICE, new, max_cases=60).status in ("equivalent", "improved")
