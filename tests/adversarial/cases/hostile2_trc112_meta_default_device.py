"""Shapes probed under torch.device('meta'): torch.zeros(n).to('cpu') builds on meta and the
move raises NotImplementedError (the caller falls back); torch.zeros(n, device='cpu') builds
a real CPU tensor and the fallback never runs."""
import torch


def run():
    events = []
    with torch.device("meta"):
        try:
            mask = torch.ones(4, dtype=torch.bool).to("cpu")
            events.append("cpu mask")
        except NotImplementedError:
            mask = None
            events.append("meta: no data")
    return mask, events
