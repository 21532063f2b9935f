"""with (\n torch.device("meta")\n): a parenthesised, multi-line with: torch.tensor(t) lands
on meta, t.detach().clone() stays on cpu."""
import torch


def run():
    t = torch.randn(3)
    with (
        torch.device("meta")
    ):
        y = torch.tensor(t)
    return y.device.type, y.shape
