"""Module summaries (analysis/summaries.py, analysis/returns.py) hold for every value the code can bind.

A class-attribute summary says ``self.w`` is a tensor in a method when every store of ``.w``
in the module is a tensor made on the class's own instance; each look-alike here stores ``w``
(or may run the method with another ``self``) in a form that is not ``self.w = <tensor>``, and
must leave ``self.w`` unknown: no report, so no fix.  A return summary says ``f()`` is a
tensor when every ``return`` of ``f`` makes one; each look-alike here binds the name ``f`` a
second time, so ``f()`` may call something else.  The controls keep their evidence.
Each look-alike marked in ``RUNS`` is also run, to show the value it binds is no tensor.
"""
import textwrap

import pytest

from flake8_torchcopy import lint_source

HEAD = "import copy\nimport types\nimport torch\nimport torch.nn as nn\n\n"

CLASS = """
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.zeros(3)

    def snap(self):
        return torch.tensor(self.w)
"""


def module(body: str, with_class: bool = True) -> str:
    return HEAD + (textwrap.dedent(CLASS).lstrip("\n") if with_class else "") \
        + textwrap.dedent(body).lstrip("\n")


def codes(src: str):
    return [(f.code, bool(f.fix and f.fix.safe)) for f in lint_source(src)]


# ----------------------------------------------------------------------- class attributes
def reported(src: str):
    return [f.code for f in lint_source(src)]


def test_a_plain_store_is_evidence():
    # reported (the fix's safety is the rule's: a value read from an instance may be a subclass)
    assert reported(module("")) == ["TRC101"]


def test_a_registered_buffer_is_evidence():
    src = HEAD + textwrap.dedent("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("w", torch.zeros(3), persistent=False)

            def snap(self):
                return copy.deepcopy(self.w)
        """)
    assert codes(src) == [("TRC105", False)]


def test_a_base_initialised_explicitly_by_a_subclass_keeps_its_evidence():
    src = HEAD + textwrap.dedent("""
        class A(nn.Module):
            def __init__(self):
                nn.Module.__init__(self)
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)

        class B(A):
            def __init__(self):
                A.__init__(self)
        """)
    assert reported(src) == ["TRC101"]


def test_a_plain_class_keeps_its_evidence():
    src = HEAD + textwrap.dedent("""
        class A:
            def __init__(self):
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)

        a = A()
        """)
    assert reported(src) == ["TRC101"]


#: each adds, to class M above (``self.w = torch.zeros(3)`` in ``__init__``, ``snap`` copies
#: ``self.w``), code that binds ``w`` otherwise or runs ``snap`` with another ``self``
ATTRIBUTE_LOOKALIKES = {
    "a tuple target": """
        def reset(m):
            m.w, m.b = [1.0], 2
        """,
    "a store spelled with a compatibility character (NFKC)": """
        def reset(m):
            m.\uff57 = [1.0]
        """,
    "a store split over lines": """
        def reset(m):
            (m
             .w) = [1.0]
        """,
    "a store through a name bound to exec": """
        run = exec

        def reset(m):
            run("m.w = [1.0]")
        """,
    "a tuple target on self": """
        class N(M):
            def reset(self):
                self.w, self.b = [1.0], 2
        """,
    "a for target": """
        def reset(m, xs):
            for m.w in xs:
                pass
        """,
    "a comprehension target": """
        def reset(m, xs):
            return [0 for m.w in xs]
        """,
    "a starred target": """
        def reset(m, xs):
            first, *m.w = xs
        """,
    "an augmented assignment": """
        def reset(m):
            m.w += 1
        """,
    "a with target": """
        def reset(m, f):
            with f as m.w:
                pass
        """,
    "a delete": """
        def reset(m):
            del m.w
        """,
    "vars()": """
        def reset(m):
            vars(m)["w"] = [1.0]
        """,
    "__dict__": """
        def reset(m):
            m.__dict__["w"] = [1.0]
        """,
    "setattr": """
        def reset(m):
            setattr(m, "w", [1.0])
        """,
    "object.__setattr__": """
        def reset(m):
            object.__setattr__(m, "w", [1.0])
        """,
    "a __setattr__ reached through a name": """
        put = object.__setattr__

        def reset(m):
            put(m, "w", [1.0])
        """,
    "exec": """
        def reset(m):
            exec("m.w = [1.0]")
        """,
    "a buffer set to None under the same name": """
        def reset(m):
            m._buffers["w"] = None
        """,
    "register_buffer on another object": """
        def reset(m):
            m.register_buffer("w", None)
        """,
    "a register call with a computed name": """
        def reset(m, name):
            m.register_buffer(name, None)
        """,
    "a property of the same name in a subclass": """
        class N(M):
            @property
            def w(self):
                return [1.0]

            @w.setter
            def w(self, value):
                pass
        """,
    "a class attribute of the same name elsewhere": """
        class Config:
            w = [1.0]
        """,
    "a method called unbound": """
        def demo():
            return M.snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a method reached through type()": """
        def demo(m):
            return type(m).snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a method reached through __class__": """
        def demo(m):
            return m.__class__.snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a method reached through cls in a class method": """
        class N(M):
            @classmethod
            def demo(cls):
                return cls.snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a method reached through super() in a class method": """
        class N(M):
            @classmethod
            def demo(cls):
                return super().snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a method named in a string (getattr)": """
        def demo():
            return getattr(M, "snap")(types.SimpleNamespace(w=[1.0]))
        """,
    "the class passed around as a value": """
        KINDS = {"m": M}

        def demo():
            return KINDS["m"].snap(types.SimpleNamespace(w=[1.0]))
        """,
    "a subclass passed around as a value": """
        class N(M):
            pass

        def demo(kind=N):
            return kind.snap(types.SimpleNamespace(w=[1.0]))
        """,
    "__func__": """
        def demo(m):
            return m.snap.__func__(types.SimpleNamespace(w=[1.0]))
        """,
    "an instance of another class passed as self": """
        import argparse

        class Other(argparse.Namespace):
            def go(self):
                return M.snap(self)
        """,
    "__getattr__ in the module": """
        class Lazy:
            def __getattr__(self, name):
                return [1.0]
        """,
}


@pytest.mark.parametrize("name", ATTRIBUTE_LOOKALIKES)
def test_attribute_stored_otherwise_is_unknown(name):
    assert codes(module(ATTRIBUTE_LOOKALIKES[name])) == []


#: whole classes whose attributes the module cannot vouch for
CLASS_LOOKALIKES = {
    "a base from elsewhere (it may define a property or __setattr__)": """
        import argparse

        class M(argparse.Namespace):
            def __init__(self):
                super().__init__()
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)
        """,
    "a decorated class": """
        import dataclasses

        @dataclasses.dataclass
        class M:
            def __post_init__(self):
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)
        """,
    "a metaclass": """
        class Meta(type):
            pass

        class M(metaclass=Meta):
            def __init__(self):
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)
        """,
    "register_buffer of a class that is no nn.Module": """
        class M:
            def register_buffer(self, name, value):
                self.names = [name]

            def __init__(self):
                self.register_buffer("w", torch.zeros(3))

            def snap(self):
                return copy.deepcopy(self.w)
        """,
    "register_buffer redefined by a mixin of an nn.Module": """
        class Mixin:
            def register_buffer(self, name, value, persistent=True):
                pass

        class M(Mixin, nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("w", torch.zeros(3))

            def snap(self):
                return copy.deepcopy(self.w)
        """,
    "an attribute nn.Module owns (train() sets it)": """
        class N(nn.Module):
            def __init__(self):
                super().__init__()
                self.training = torch.zeros(1)

            def snap(self):
                return torch.tensor(self.training)
        """,
    "a base class bound twice": """
        class Base:
            pass

        class Base(dict):
            pass

        class M(Base):
            def __init__(self):
                self.w = torch.zeros(3)

            def snap(self):
                return torch.tensor(self.w)
        """,
}


@pytest.mark.parametrize("name", CLASS_LOOKALIKES)
def test_classes_the_module_cannot_vouch_for_have_no_summary(name):
    assert codes(HEAD + textwrap.dedent(CLASS_LOOKALIKES[name])) == []


#: look-alikes run: ``demo`` returns what ``snap`` copied from, or the copy; no tensor
RUNS = {
    "a method called unbound": "demo()",
    "a method reached through type()": "demo(M())",
    "a method reached through __class__": "demo(M())",
    "a method reached through cls in a class method": "N.demo()",
    "a method named in a string (getattr)": "demo()",
    "the class passed around as a value": "demo()",
    "a subclass passed around as a value": "demo()",
    "__func__": "demo(M())",
}


@pytest.mark.verify
@pytest.mark.parametrize("name", RUNS)
def test_the_lookalikes_do_bind_no_tensor(name):
    torch = pytest.importorskip("torch")
    ns: dict = {}
    exec(compile(module(ATTRIBUTE_LOOKALIKES[name]), name, "exec"), ns)
    out = eval(RUNS[name], ns)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float32  # torch.tensor([1.0]) ran...
    assert out.tolist() == [1.0]  # ...on the list, where the summary would have said a tensor


# ------------------------------------------------------------------------------ returns
RETURNS = """
def make():
    return torch.zeros(3)

def use():
    return torch.tensor(make())
"""


def test_a_function_bound_once_is_evidence():
    assert codes(HEAD + textwrap.dedent(RETURNS)) == [("TRC101", True)]


#: each binds ``make`` a second time in the module (after the functions above)
RETURN_LOOKALIKES = {
    "a later def": """
        def make():
            return [1.0]
        """,
    "an assignment": """
        make = lambda: [1.0]
        """,
    "an import": """
        from json import loads as make
        """,
    "a for target": """
        for make in [list]:
            pass
        """,
    "a with target": """
        import contextlib

        with contextlib.nullcontext(list) as make:
            pass
        """,
    "an except target": """
        try:
            pass
        except Exception as make:
            pass
        """,
    "a walrus": """
        if (make := list):
            pass
        """,
    "a class": """
        class make(list):
            pass
        """,
    "a global in a function": """
        def patch():
            global make
            make = list
        """,
    "a global declared only": """
        def patch(f):
            global make
            return f
        """,
    "exec": """
        exec("make = list")
        """,
    "globals()": """
        globals()["make"] = list
        """,
    "sys.modules": """
        import sys

        setattr(sys.modules[__name__], "make", list)
        """,
    "a star import": """
        from os.path import *
        """,
    "a del": """
        del make
        """,
    "a match capture": """
        match [1]:
            case make:
                pass
        """,
    "a conditional second def": """
        if __debug__:
            def make():
                return [1.0]
        """,
}


@pytest.mark.parametrize("name", RETURN_LOOKALIKES)
def test_a_name_bound_again_carries_no_return_summary(name):
    src = HEAD + textwrap.dedent(RETURNS) + "\n" + textwrap.dedent(RETURN_LOOKALIKES[name]).lstrip("\n")
    assert codes(src) == []


@pytest.mark.parametrize("name", RETURN_LOOKALIKES)
def test_the_return_summary_itself_refuses_a_name_bound_again(name):
    """The same, asked of the summary alone (given the module's tree, without the walker's own
    account of rebound names)."""
    import ast

    from flake8_torchcopy.analysis.returns import returns_tensor

    def qualname(node):
        return "torch.zeros" if isinstance(node, ast.Attribute) and node.attr == "zeros" else None

    base = ast.parse(textwrap.dedent(RETURNS))
    assert returns_tensor(base.body[0], qualname, tree=base)
    tree = ast.parse(textwrap.dedent(RETURNS) + "\n" + textwrap.dedent(RETURN_LOOKALIKES[name]))
    assert not returns_tensor(tree.body[0], qualname, tree=tree)


@pytest.mark.verify
def test_a_rebound_function_does_return_a_list():
    torch = pytest.importorskip("torch")
    ns: dict = {}
    src = HEAD + textwrap.dedent(RETURNS) + "\n" + textwrap.dedent(RETURN_LOOKALIKES["a later def"])
    exec(compile(src, "m", "exec"), ns)
    assert ns["use"]().tolist() == [1.0]  # torch.tensor ran on the list the later def returns
    assert isinstance(ns["use"](), torch.Tensor)


def test_the_summaries_without_a_walker_give_nothing():
    """Called without the module (no tree, no walker to ask), a summary claims nothing."""
    import ast

    from flake8_torchcopy.analysis.returns import returns_tensor
    from flake8_torchcopy.analysis.summaries import store_counts, tensor_attributes

    tree = ast.parse(textwrap.dedent(RETURNS))
    qualname = lambda node: "torch.zeros" if isinstance(node, ast.Attribute) else None  # noqa: E731
    assert not returns_tensor(tree.body[0], qualname)
    assert returns_tensor(tree.body[0], qualname, tree=tree)
    cls_tree = ast.parse(textwrap.dedent(CLASS).replace("nn.Module", "object"))
    cls = cls_tree.body[0]
    assert tensor_attributes(cls, store_counts(textwrap.dedent(CLASS)), qualname) == {}
    assert tensor_attributes(cls, store_counts(textwrap.dedent(CLASS)), qualname, tree=cls_tree) == {"w": True}
