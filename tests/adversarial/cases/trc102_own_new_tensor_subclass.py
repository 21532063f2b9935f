"""self.new_tensor(t) inside a Tensor subclass that defines its own new_tensor (it counts
allocations): a rewrite to t.detach()... skips the override."""
import torch


class Pooled(torch.Tensor):
    allocations = 0

    def new_tensor(self, data, **kwargs):
        Pooled.allocations += 1
        return super().new_tensor(data, **kwargs)

    def refreshed(self):
        t = torch.randn(self.shape)
        return self.new_tensor(t)


def run():
    p = torch.zeros(3, dtype=torch.float64).as_subclass(Pooled)
    r = p.refreshed()
    return r, type(r).__name__, Pooled.allocations
