"""A tree whose detach() removes the node from its parent's children: the order of clone
and detach decides which node leaves the tree."""
import torch


class TreeNode:
    def __init__(self, name, payload):
        self.name = name
        self.payload = payload
        self.children = []
        self.parent = None

    def add(self, child):
        child.parent = self
        self.children.append(child)
        return child

    def clone(self):
        n = TreeNode(self.name + "'", self.payload.clone())
        if self.parent is not None:
            self.parent.add(n)
        return n

    def detach(self):
        if self.parent is not None:
            self.parent.children.remove(self)
            self.parent = None
        return self


def run():
    root = TreeNode("root", torch.zeros(1))
    a = root.add(TreeNode("a", torch.ones(2)))
    b = a.clone().detach()
    return [c.name for c in root.children], b.name, b.parent is None, a.parent is root
