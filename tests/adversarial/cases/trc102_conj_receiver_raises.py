"""x.new_tensor(t) raises a RuntimeError when x is a conjugate view; the rewrite
t.detach().to(dtype=x.dtype, device=x.device, copy=True) does not."""
import torch


def run():
    x = torch.tensor([1 + 2j]).conj()
    t = torch.ones(2, dtype=torch.complex64)
    try:
        return x.new_tensor(t)
    except RuntimeError:
        return "new_tensor of a conjugate view"
