"""A dataclass field default replaces the attribute a method believes is a tensor: the
dataclass __init__ stores it, invisible in the text."""
import dataclasses

import torch


@dataclasses.dataclass
class Config:
    scale: object = dataclasses.field(default_factory=lambda: [1.0, 2.0])

    def __post_init__(self):
        if False:
            self.scale = torch.ones(2)

    def frozen_scale(self):
        return torch.tensor(self.scale)


def run():
    return Config().frozen_scale()
