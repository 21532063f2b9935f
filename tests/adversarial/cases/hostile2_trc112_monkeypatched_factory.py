"""torch.zeros = logged(torch.zeros) at module level, before the call: the patched factory is
called with other arguments (device= appears) once torch.zeros(3).to('cpu') is folded."""
import torch

_orig_zeros = torch.zeros
CALLS = []


def _logged_zeros(*args, **kwargs):
    CALLS.append(sorted(kwargs))
    return _orig_zeros(*args, **kwargs)


torch.zeros = _logged_zeros


def run():
    y = torch.zeros(3).to("cpu")
    return y, list(CALLS)
