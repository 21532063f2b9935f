"""sd = obj.state_dict(); torch.tensor(sd["last_epoch"]): a scheduler's state dict through a
name and a subscript."""
import torch


def _export(obj):
    sd = obj.state_dict()
    return torch.tensor(sd["last_epoch"]), torch.tensor(sd["base_lrs"])


def run():
    p = torch.nn.Parameter(torch.ones(1))
    opt = torch.optim.SGD([p], lr=0.5)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0)
    return _export(sched)
