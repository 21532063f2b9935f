"""torch.eye(3).to(dtype=torch.uint16): eye has no uint16 (or complex32) kernel, but the
float32 eye converts fine. Folded into torch.eye(3, dtype=torch.uint16) it raises
NotImplementedError. The positional form .to(torch.uint16) is left alone; the keyword form
is folded."""
import torch


def _identity_masks(n):
    a = torch.eye(n).to(dtype=torch.uint16)
    b = torch.eye(n).to(dtype=torch.complex32)
    return a.int(), b.real.float()


def run():
    return _identity_masks(3)
