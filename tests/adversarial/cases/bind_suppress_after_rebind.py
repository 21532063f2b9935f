"""contextlib.suppress swallows an exception raised before the tensor assignment: t keeps
its list value, which a flow analysis without exception edges misses."""
import contextlib
import os

import torch


def run():
    t = [0.0, 0.0]
    with contextlib.suppress(ValueError):
        scale = float(os.environ.get("TORCHCOPY_ADV_SCALE_UNSET", "not-a-float"))
        t = torch.full((2,), scale)
    return torch.tensor(t)
