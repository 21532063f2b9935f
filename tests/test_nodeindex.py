"""The shared node index gives ``ast.walk``'s nodes in ``ast.walk``'s order (the module
scans that read it keep their meaning), and it leaves no reference cycle behind."""
import ast
import gc
from pathlib import Path

from flake8_torchcopy.analysis import nodeindex

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = '''
import torch as th
from torch import nn
global_value: int = 3


class M(nn.Module):
    x: "th.Tensor"

    def __init__(self, *a, k=1, **kw):
        super().__init__()
        self.w = th.zeros(3)[0]
        del self.w

    async def f(self, y):
        async with y as (a, b):
            yield [i async for i in a if (z := i)]
        match y:
            case {"k": 1, **rest}:
                pass
            case [1, *others] | M(a=1):
                pass
        lambda q=1: q
        return f"{y!r:>{3}}", b"x", ...


def g(*, q, r=None):
    global global_value
    return {**q, 1: 2, None: r}, 1.5, 2j, True
'''


def _sources():
    yield SAMPLE
    for path in sorted((ROOT / "flake8_torchcopy" / "analysis").glob("*.py"))[:12]:
        yield path.read_text()


def test_walk_is_ast_walk_without_contexts():
    for source in _sources():
        tree = ast.parse(source)
        want = [n for n in ast.walk(tree) if not isinstance(n, ast.expr_context)]
        assert [id(n) for n in nodeindex.walk(tree)] == [id(n) for n in want]
        for node in want[:400]:
            kids = [c for c in ast.iter_child_nodes(node) if not isinstance(c, ast.expr_context)]
            assert [id(c) for c in nodeindex.children(node)] == [id(c) for c in kids]


def test_select_keeps_walk_order_across_classes():
    classes = (ast.Name, ast.Attribute, ast.Call, ast.ImportFrom, ast.Import, ast.arg, ast.Module)
    for source in _sources():
        tree = ast.parse(source)
        want = [n for n in ast.walk(tree) if isinstance(n, classes) and n is not tree]
        assert [id(n) for n in nodeindex.select(tree, classes)] == [id(n) for n in want]
        assert nodeindex.select(tree, (ast.Name,)) == [n for n in want if isinstance(n, ast.Name)]
        assert not nodeindex.select(tree, (ast.Module,))  # the root is not in its own index


def test_the_index_goes_with_its_tree():
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        tree = ast.parse(SAMPLE)
        assert nodeindex.select(tree, (ast.ClassDef,))
        assert nodeindex._INDEX in tree.__dict__  # kept on the tree, asked again for free
        del tree
        assert gc.collect() == 0  # freed by its reference count: no cycle through the index
    finally:
        if was:
            gc.enable()
