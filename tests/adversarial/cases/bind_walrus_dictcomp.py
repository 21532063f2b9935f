"""A walrus in a dict comprehension over an empty dict."""
import torch


def run():
    t = [0.5]
    cfg = {}
    _ = {k: (t := torch.full((1,), float(v))) for k, v in cfg.items()}
    return torch.tensor(t)
