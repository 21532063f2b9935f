"""Without CUDA, torch.zeros(3).cuda(0) raises a RuntimeError ("Cannot access accelerator
device"), torch.zeros(3, device="cuda:0") an AssertionError ("Torch not compiled with CUDA
enabled"): a handler of one of them sees only one of the two.  (With CUDA both build the
tensor: nothing differs.)"""
import torch


def _on_device():
    return torch.ones(2).cuda(0)


def run():
    try:
        x = torch.zeros(3).cuda(0)
    except RuntimeError:
        x = "no device, caught as a RuntimeError"
    try:
        y = _on_device()
    except AssertionError:
        y = "no device, caught as an AssertionError"
    return x, y
