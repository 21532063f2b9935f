"""torch.tensor = logged(torch.tensor) at module level, before the call: the fixed code no
longer goes through the patched function."""
import torch

_orig_tensor = torch.tensor
CALLS = []


def _logged_tensor(data, *args, **kwargs):
    CALLS.append(tuple(getattr(data, "shape", ())))
    return _orig_tensor(data, *args, **kwargs)


torch.tensor = _logged_tensor


def run():
    t = torch.randn(2, 2)
    y = torch.tensor(t)
    return y, list(CALLS)
