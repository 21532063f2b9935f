"""Pins the safe TRC110 fix where the transfer is a no-op: w.float().detach() on a float32
leaf returns a view of w itself either way, so a later in-place write reaches w in both.
(The seed is global: a ``generator=`` the analysis cannot prove a Generator may be a
``__torch_function__`` object that decides what randn returns.)"""
import torch

EXPECT_FIX = True


def run():
    torch.manual_seed(0)
    w = torch.randn(3, requires_grad=True)
    a = w.float().detach()
    b = w.cpu().detach()
    c = w.to(torch.float64).detach()
    a.add_(1)
    return w, a, b, c, a._version, w._version
