"""A user class whose detach() unlinks the object itself and returns it: clone-then-detach
unlinks the copy; detach-then-clone unlinks the original."""
import torch


class Node:
    def __init__(self, value, parent=None):
        self.value = value
        self.parent = parent

    def clone(self):
        return Node(self.value, self.parent)

    def detach(self):
        self.parent = None
        return self


def branch_off(node):
    return node.clone().detach()


def run():
    root = Node(torch.zeros(2))
    leaf = Node(torch.ones(2), parent=root)
    copy = branch_off(leaf)
    return leaf.parent is root, copy.parent is None, copy is leaf
