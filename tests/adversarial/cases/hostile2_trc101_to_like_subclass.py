"""y = torch.zeros(3).to(ref) / .type_as(ref), the idiom for "same device and dtype as ref":
with ref a Tensor subclass the result is of that subclass (to/type_as dispatch on ref).
torch.tensor(y) is plain; y.detach().clone() is not."""
import torch


class Tagged(torch.Tensor):
    pass


def _like(ref):
    y = torch.zeros(3).to(ref)
    z = torch.ones(3).type_as(ref)
    return torch.tensor(y), torch.tensor(z)


def run():
    ref = torch.arange(3.0).as_subclass(Tagged)
    a, b = _like(ref)
    return a, b, type(a).__name__, type(b).__name__
