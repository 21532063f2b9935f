"""Pins the safe TRC110 fix where the transfer is a no-op: w.float().detach() on a float32
leaf returns a view of w itself either way, so a later in-place write reaches w in both."""
import torch

EXPECT_FIX = True


def run():
    w = torch.randn(3, generator=torch.Generator().manual_seed(0), requires_grad=True)
    a = w.float().detach()
    b = w.cpu().detach()
    c = w.to(torch.float64).detach()
    a.add_(1)
    return w, a, b, c, a._version, w._version
