"""TRC108 on a list held in an attribute and filled by its class (issue 18, pyro's
``TracePosterior.log_weights``; analysis/listattrs.py), and look-alikes that stay quiet.

Every reported program is run with torch: ``make()`` builds the object and fills the list
as the class does; each item is a tensor, and ``convert()`` (the line reported) hands that
list to ``torch.tensor``, which goes through Python scalars (the graph is cut).  Each
look-alike is run too where it can be: the list it makes holds something that is no tensor,
or the program stores into the list in a way the analysis must not trust.
"""
import textwrap

import pytest

from flake8_torchcopy import fix_source, lint_source

torch = pytest.importorskip("torch")

HEAD = "import abc\nimport torch\nimport torch.nn as nn\n\n"

# name -> the class; ``make()`` returns a filled instance whose ``xs`` is converted by ``convert()``
REPORTED = {
    "pyro's form: reset, append in run, convert elsewhere": """
        class Posterior(object, metaclass=abc.ABCMeta):
            def __init__(self):
                self._reset()

            def _reset(self):
                self.xs = []

            def run(self, logits):
                self._reset()
                for logit in logits:
                    self.xs.append(torch.as_tensor(logit).detach())
                self.cat = torch.stack(self.xs)
                return self

            def convert(self):
                if not self.xs:
                    return None
                return torch.tensor(self.xs)

        def make():
            return Posterior().run([0.5, torch.tensor(1.5)])
        """,
    "converted before the method that fills it (source order)": """
        class Meter:
            def convert(self):
                return torch.tensor(self.xs, dtype=torch.float64)

            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

        def make():
            m = Meter()
            m.update(torch.ones(3, requires_grad=True))
            return m
        """,
    "a display of tensors, insert and extend, read from outside by zip and len": """
        class Buf(nn.Module):
            def __init__(self):
                super().__init__()
                self.xs = [torch.zeros(())]

            def add(self, v):
                self.xs.insert(0, v.mean())
                self.xs.extend([v.sum(), v.max()])

            def convert(self):
                return torch.as_tensor(self.xs)

        def summary(b):
            return len(b.xs), list(zip(b.xs, b.xs))

        def make():
            b = Buf()
            b.add(torch.ones(2))
            summary(b)
            return b
        """,
}

# a tensor appended on one path, a number on another: torch.tensor still converts the tensor
# through a Python scalar (it raises for more than one element): the some-path report, no fix
SOME_PATHS = """
    class Meter:
        def __init__(self):
            self.xs = []

        def update(self, loss, n):
            if n:
                self.xs.append(loss.detach().sum())
            else:
                self.xs.append(0.0)

        def convert(self):
            return torch.tensor(self.xs)

    def make():
        m = Meter()
        m.update(torch.ones(2, requires_grad=True), 1)
        m.update(None, 0)
        return m
    """

# name -> (program, whether make() gives a list whose items are all tensors, (the text that keeps
# it quiet, a replacement without which the class is reported): a control that the cause is the one named)
QUIET = {
    "read by a computed name and filled there": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def log(self, name, value):
                getattr(self, f"{name}s").append(value)

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.log("x", 0.5)
            return m
        """, False, ('getattr(self, f"{name}s")', 'getattr(self, "ys")')),
    "read by a name split over two literals": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def log(self, value):
                getattr(self, "x"
                        "s").append(value)

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.log(0.5)
            return m
        """, False, ('getattr(self, "x"\n                "s")', 'getattr(self, "ys")')),
    "appended from outside the class": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.xs.append(3)
            return m
        """, False, ('m.xs.append(3)', 'pass')),
    "stored from outside the class": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.xs = [1, 2]
            return m
        """, False, ('m.xs = [1, 2]', 'pass')),
    "setattr in the module": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            setattr(m, "xs", [1.0])
            return m
        """, False, ('setattr(m, "xs", [1.0])', 'pass')),
    "bound to something else than a list display": ("""
        class Meter:
            def __init__(self, init):
                self.xs = list(init)

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            return Meter([1, 2])
        """, False, ('list(init)', '[]')),
    "grown by += of something not known": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss, more):
                self.xs.append(loss.detach().sum())
                self.xs += more

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.update(torch.ones(2), [1.0])
            return m
        """, False, ('self.xs += more', 'pass')),
    "handed out by a method": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def items(self):
                return self.xs

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.items().append(2.0)
            return m
        """, False, ('return self.xs\n', 'pass\n')),
    "an alias that appends": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, v):
                xs = self.xs
                xs.append(v)
                self.xs.append(torch.ones(()))

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.update(1.0)
            return m
        """, False, ('xs = self.xs', 'pass')),
    "appended values not known": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, v):
                self.xs.append(v)

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.update(1.0)
            return m
        """, False, ('self.xs.append(v)', 'self.xs.append(torch.ones(()))')),
    "named in a string": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            getattr(m, "xs").append(1.0)
            return m
        """, False, ('getattr(m, "xs").append(1.0)', 'pass')),
    "a base class from elsewhere": ("""
        import collections

        class Meter(collections.UserDict):
            def __init__(self):
                super().__init__()
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.update(torch.ones(2))
            return m
        """, True, ('(collections.UserDict)', '')),
    "appended in a subclass": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def convert(self):
                return torch.tensor(self.xs)

        class Counting(Meter):
            def update(self, loss):
                self.xs.append(1)

        def make():
            m = Counting()
            m.update(torch.ones(2))
            return m
        """, False, ('self.xs.append(1)', 'pass')),
    "max of it and another list is the list itself": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def pad(self):
                max(self.xs, [], key=len).append(0.0)

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.pad()
            return m
        """, False, ('max(self.xs, [], key=len).append(0.0)', 'max(self.xs, key=len)')),
    "sum's start is the list itself": ("""
        class Meter:
            def __init__(self):
                self.xs = []

            def update(self, loss):
                self.xs.append(loss.detach().sum())

            def pad(self):
                sum([], self.xs).append(0.0)

            def convert(self):
                return torch.tensor(self.xs)

        def make():
            m = Meter()
            m.pad()
            return m
        """, False, ('sum([], self.xs).append(0.0)', 'sum(self.xs)')),
}


def _source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


def _run(src: str):
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    return ns["make"]()


def _convert_line(src: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), 1) if "torch.tensor(self.xs" in line
                or "torch.as_tensor(self.xs" in line)


@pytest.mark.parametrize("name", REPORTED)
def test_a_list_its_class_fills_with_tensors_is_reported(name):
    src = _source(REPORTED[name])
    found = [(f.code, f.line) for f in lint_source(src)]
    assert ("TRC108", _convert_line(src)) in found
    obj = _run(src)
    assert obj.xs and all(isinstance(i, torch.Tensor) and i.dim() == 0 for i in obj.xs)
    assert torch.equal(obj.convert().to(torch.stack(obj.xs).dtype), torch.stack(obj.xs))


def test_the_fix_rests_on_the_class_and_is_unsafe():
    src = _source(REPORTED["converted before the method that fills it (source order)"].replace(
        ", dtype=torch.float64", ""))
    found = [f for f in lint_source(src) if f.code == "TRC108"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    assert fix_source(src) == src  # nothing applied by default
    fixed = fix_source(src, unsafe=True)
    assert "torch.stack(self.xs).detach()" in fixed
    obj = _run(fixed)
    assert torch.equal(obj.convert(), torch.tensor([3.0]))


def test_more_than_one_element_raises_as_the_message_says():
    src = _source(REPORTED["converted before the method that fills it (source order)"].replace(
        "loss.detach().sum()", "loss.detach()"))
    found = [f for f in lint_source(src) if f.code == "TRC108"]
    assert found and "raises for tensors of more than one element" in found[0].message
    with pytest.raises((ValueError, RuntimeError), match="only one element tensors"):
        _run(src).convert()


def test_an_empty_list_converts_and_the_message_claims_no_item():
    src = _source(REPORTED["pyro's form: reset, append in run, convert elsewhere"])
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    assert torch.tensor(ns["Posterior"]().xs).numel() == 0  # an empty list: torch.tensor([]) works
    (f,) = [f for f in lint_source(src) if f.code == "TRC108"]
    assert "of a list of tensors" in f.message and "stack" in f.message


def test_a_number_appended_on_another_path_is_the_some_path_report():
    src = _source(SOME_PATHS)
    (f,) = [f for f in lint_source(src) if f.code == "TRC108"]
    assert f.fix is None and "on some paths" in f.message
    obj = _run(src)
    assert isinstance(obj.xs[0], torch.Tensor) and obj.xs[1] == 0.0
    assert obj.convert().grad_fn is None  # the tensor went through a Python scalar
    obj.xs[0] = torch.ones(2)
    with pytest.raises((ValueError, RuntimeError), match="only one element tensors"):
        obj.convert()


@pytest.mark.parametrize("name", QUIET)
def test_lookalikes_are_quiet(name):
    body, all_tensors, (cause, instead) = QUIET[name]
    src = _source(body)
    assert [f for f in lint_source(src) if f.code == "TRC108"] == []
    control = src.replace(cause, instead)
    assert control != src and [f.code for f in lint_source(control) if f.code == "TRC108"] == ["TRC108"]
    obj = _run(src)
    assert all(isinstance(i, torch.Tensor) for i in obj.xs) == all_tensors
