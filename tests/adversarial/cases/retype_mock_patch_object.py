"""mock.patch.object(torch.Tensor, "detach", ...) replaces a method the fix would call."""
from unittest import mock

import torch


def run():
    t = torch.randn(3)
    with mock.patch.object(torch.Tensor, "detach", lambda self: "patched"):
        return torch.tensor(t)
