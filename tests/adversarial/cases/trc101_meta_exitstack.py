"""contextlib.ExitStack().enter_context(torch.device("meta")): a default device entered
through an exit stack (as a model builder with several contexts does)."""
import contextlib

import torch


def run():
    t = torch.randn(3)
    with contextlib.ExitStack() as stack:
        stack.enter_context(torch.device("meta"))
        y = torch.tensor(t)
    return str(y.device)
