"""torch.set_default_tensor_type(torch.DoubleTensor) in the module: the copies must keep
float32 either way, and nothing else may change."""
import warnings

import torch

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    torch.set_default_tensor_type(torch.DoubleTensor)


def run():
    t = torch.randn(3, dtype=torch.float32)
    y = torch.tensor(t)
    z = torch.tensor(t, requires_grad=True)
    return y, z
