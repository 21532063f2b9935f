"""GradScaler.state_dict()["scale"] is a float; state_dict().values() are floats and ints."""
import torch


def _scale_of(scaler):
    return torch.tensor(scaler.state_dict()["scale"])


def _copy_values(scaler):
    return [torch.tensor(v) for v in scaler.state_dict().values()
            if not isinstance(v, bool)]


def run():
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    p = torch.nn.Parameter(torch.ones(1))
    scaler.scale(p.sum()).backward()
    return _scale_of(scaler), _copy_values(scaler)
