"""continue in finally (Python 3.8+) swallows the exception; the loop goes on with t as it
was before the failing statement."""
import torch


def run():
    out = []
    t = [0.0]
    for text in ["1", "bad", "2"]:
        try:
            t = torch.full((1,), float(text)) if text != "bad" else [float(text)]
        finally:
            out.append(torch.tensor(t))
            continue  # noqa: B012
    return out
