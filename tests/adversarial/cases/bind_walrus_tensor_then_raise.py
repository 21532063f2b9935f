"""t starts as a list; a statement binds t := tensor and then raises; only the handler runs
with t a tensor; the normal path keeps the list when parsing fails first."""
import torch


def parse(text):
    t = [0.0]
    try:
        v = float(text)
        t = torch.full((1,), v)
    except ValueError:
        pass
    return torch.tensor(t)


def run():
    return parse("1.5"), parse("oops")
