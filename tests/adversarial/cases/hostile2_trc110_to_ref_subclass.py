"""y.to(ref).detach() with y a plain tensor and ref a logging __torch_function__ subclass (the
"same device and dtype as ref" idiom): .to(ref) dispatches to the subclass and returns one,
whose .detach() is logged. Fixed, y.detach() runs on the plain tensor and is not logged."""
import torch

LOG = []


class Logging(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in ("to", "detach"):
            LOG.append(name)
        return super().__torch_function__(func, types, args, kwargs or {})


def _like(ref):
    y = torch.zeros(3)
    return y.to(ref).detach()


def run():
    ref = torch.ones(3, dtype=torch.float64).as_subclass(Logging)
    del LOG[:]
    out = _like(ref)
    return out, list(LOG)
