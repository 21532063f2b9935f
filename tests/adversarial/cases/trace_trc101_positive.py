"""torch.jit.trace of a module whose forward copies a tensor with torch.tensor: the trace
records an op on the tensor (values follow the input), so the fix keeps what the traced
module returns; only the TracerWarning about torch.tensor goes."""
import torch

EXPECT_FIX = True
WARNINGS_THE_FIX_REMOVES = [r"torch\.tensor results are registered as constants"]


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.zeros(3) + 1
        t.add_(x)
        return torch.tensor(t), torch.tensor(t.sum())


def run():
    tm = torch.jit.trace(M(), (torch.zeros(3),))
    return tm(torch.ones(3))
