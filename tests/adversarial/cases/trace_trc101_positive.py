"""torch.jit.trace of a function that copies a tensor with torch.tensor: the trace records
an op on the tensor (values follow the input), so the fix keeps what the traced function
returns; only the TracerWarning about torch.tensor goes."""
import torch

EXPECT_FIX = True
WARNINGS_THE_FIX_REMOVES = [r"torch\.tensor results are registered as constants"]


def g(x):
    t = torch.zeros(3) + 1
    t.add_(x)
    return torch.tensor(t), torch.tensor(t.sum())


def run():
    tf = torch.jit.trace(g, (torch.zeros(3),))
    return tf(torch.ones(3))
