"""opt.state_dict() values are dicts and lists, not tensors; a helper copies each entry's lr
and step through torch.tensor."""
import torch


def _lr_of(opt):
    groups = opt.state_dict()["param_groups"]
    return torch.tensor(groups[0]["lr"])


def _steps(opt):
    state = opt.state_dict()["state"]
    return [torch.tensor(s["step"]) for s in state.values()]


def run():
    p = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.Adam([p], lr=0.1)
    p.sum().backward()
    opt.step()
    return _lr_of(opt), _steps(opt)
