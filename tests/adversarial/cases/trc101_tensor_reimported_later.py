"""from torch import tensor, the use, then tensor rebound by an import at module level
below the function (a compatibility shim)."""
import torch
from torch import tensor


def copy_of():
    w = torch.ones(2)
    return tensor(w)


from numpy import array as tensor  # noqa: E402,F811


def run():
    y = copy_of()
    return type(y).__name__, y
