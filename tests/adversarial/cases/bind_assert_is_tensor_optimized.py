"""assert torch.is_tensor(x) in a public function as the proof, run under python -O too."""
import torch

RUN_OPTIMIZED = True


def freeze(x):
    assert torch.is_tensor(x), "freeze() takes a tensor"
    return x.clone().detach() if False else torch.tensor(x)


def run():
    try:
        return freeze([1.0, 2.0])
    except AssertionError as e:
        return "AssertionError", str(e)
