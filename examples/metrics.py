"""Training-loop helpers with the idioms flake8-torchcopy finds (try: torchcopy-fix --diff examples/)."""
import numpy as np
import torch


def accuracy(output, target, topk=(1,)):
    """The top-k accuracy helper of PyTorch's ImageNet example, as copied into many projects."""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            # raises for k > 1 and a batch above 1: the rows of `correct` are not contiguous
            correct_k = correct[:k].view(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


def collate(samples):
    features = [np.asarray(s["x"], dtype=np.float32) for s in samples]
    return torch.tensor(features)  # one Python-level conversion per array: slow, and warns
