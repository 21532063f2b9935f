"""A plain class with its own new_tensor (a tensor factory bound to a device and a
dtype policy), called as self.new_tensor(t) with t a tensor."""
import torch


class Factory:
    dtype = torch.float16
    device = torch.device("cpu")

    def __init__(self):
        self.made = []

    def new_tensor(self, data):
        out = torch.as_tensor(data, dtype=torch.float64).round()
        self.made.append(out)
        return out

    def make(self):
        t = torch.randn(3) * 10
        return self.new_tensor(t)


def run():
    f = Factory()
    y = f.make()
    return y, len(f.made), f.made[0] is y
