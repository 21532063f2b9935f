"""sched.state_dict()["last_epoch"] is an int; scaler.state_dict()["scale"] a float."""
import copy

import torch


def _epoch(sched):
    return torch.tensor(sched.state_dict()["last_epoch"])


def _all_values(obj):
    return {k: torch.tensor(v) for k, v in obj.state_dict().items()
            if isinstance(v, (int, float))}


def run():
    p = torch.nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([p], lr=1.0)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    opt.step()
    sched.step()
    backup = copy.deepcopy(sched.state_dict()["last_epoch"])
    return _epoch(sched), _all_values(sched), backup
