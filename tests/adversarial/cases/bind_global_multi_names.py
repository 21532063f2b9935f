"""global a, t with t second in the list, in a lambda-free helper called from a loop."""
import torch

a = 0
t = torch.zeros(2)


def step():
    global a, t
    a += 1
    t = [float(a)] * 2


for _ in range(2):
    step()
snapshot = torch.tensor(t)


def run():
    return snapshot, a
