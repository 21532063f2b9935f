"""Outputs of torch.nn module instances (analysis/nnmodules.py), checked against torch (CPU).

The table of classes whose forward returns a tensor (``torchfacts.NN_TENSOR_MODULES``, read
from the forward annotations by tools/gen_torch_facts.py) is checked on real inputs; the
RNN facts (tuple structure, batch_first layout) are measured for every class and option
that changes them.  Then each form the analysis follows is a program run with torch: a
reported copy warns when run, a reported view raises, and each look-alike is quiet and
does not (or its view works).
"""
import inspect
import textwrap
import typing

import pytest
from copywarning import copies_a_tensor

from flake8_torchcopy import lint_source
from flake8_torchcopy.analysis import nnmodules
from flake8_torchcopy.analysis import torchfacts as facts

torch = pytest.importorskip("torch")
nn = torch.nn

pytestmark = pytest.mark.filterwarnings("ignore")


# ------------------------------------------------------------------ the table
def test_every_entry_is_an_nn_module_annotated_to_return_a_tensor():
    assert len(facts.NN_TENSOR_MODULES) > 100
    for name in facts.NN_TENSOR_MODULES:
        cls = getattr(nn, name)
        assert issubclass(cls, nn.Module), name
        assert typing.get_type_hints(cls.forward)["return"] is torch.Tensor, name
    for name, kinds in facts.NN_TUPLE_MODULES.items():
        assert typing.get_type_hints(getattr(nn, name).forward)["return"] == tuple[(torch.Tensor,) * len(kinds)]
    for name in ("Sequential", "ModuleList", "ModuleDict", "MultiheadAttention", "LSTM", "GRU", "RNN",
                 "MaxPool2d", "AdaptiveLogSoftmaxWithLoss", "DataParallel", "Module") + tuple(_not_exact()):
        assert name not in facts.NN_TENSOR_MODULES, name


def _not_exact():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "gen", Path(__file__).resolve().parent.parent / "tools" / "gen_torch_facts.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod.NN_NOT_EXACT


def test_the_left_out_classes_return_other_things():
    assert nn.Identity()([1.0]) == [1.0]  # annotated -> Tensor, returns its input

    class Pair(nn.Module):
        def __init__(self):
            super().__init__()
            self.self_attn = nn.MultiheadAttention(4, 1)

        def forward(self, src, src_mask=None, is_causal=False, src_key_padding_mask=None):
            return src, src

    out = nn.TransformerEncoder(Pair(), num_layers=1, enable_nested_tensor=False)(torch.randn(2, 3, 4))
    assert isinstance(out, tuple)  # annotated -> Tensor, returns what its layers return


x4 = lambda: torch.randn(2, 3, 8, 8)  # noqa: E731
SAMPLES = {  # a representative set: each family of the table, run on a real input
    "Linear": (lambda: nn.Linear(8, 4), lambda: (torch.randn(2, 8),)),
    "LazyLinear": (lambda: nn.LazyLinear(4), lambda: (torch.randn(2, 8),)),
    "Bilinear": (lambda: nn.Bilinear(3, 4, 5), lambda: (torch.randn(2, 3), torch.randn(2, 4))),
    "Conv2d": (lambda: nn.Conv2d(3, 4, 3), lambda: (x4(),)),
    "ConvTranspose1d": (lambda: nn.ConvTranspose1d(3, 4, 3), lambda: (torch.randn(2, 3, 5),)),
    "BatchNorm2d": (lambda: nn.BatchNorm2d(3), lambda: (x4(),)),
    "LayerNorm": (lambda: nn.LayerNorm(8), lambda: (torch.randn(2, 8),)),
    "GroupNorm": (lambda: nn.GroupNorm(1, 3), lambda: (x4(),)),
    "RMSNorm": (lambda: nn.RMSNorm(8), lambda: (torch.randn(2, 8),)),
    "Dropout": (lambda: nn.Dropout(0.5), lambda: (torch.randn(2, 8),)),
    "ReLU": (lambda: nn.ReLU(), lambda: (torch.randn(2, 8),)),
    "GELU": (lambda: nn.GELU(), lambda: (torch.randn(2, 8),)),
    "Softmax": (lambda: nn.Softmax(dim=1), lambda: (torch.randn(2, 8),)),
    "Embedding": (lambda: nn.Embedding(10, 4), lambda: (torch.tensor([1, 2]),)),
    "Flatten": (lambda: nn.Flatten(), lambda: (x4(),)),
    "Unflatten": (lambda: nn.Unflatten(1, (2, 4)), lambda: (torch.randn(2, 8),)),
    "MaxUnpool1d": (lambda: nn.MaxUnpool1d(2),
                    lambda: nn.functional.max_pool1d(torch.randn(1, 1, 4), 2, return_indices=True)),
    "AdaptiveAvgPool2d": (lambda: nn.AdaptiveAvgPool2d(1), lambda: (x4(),)),
    "Upsample": (lambda: nn.Upsample(scale_factor=2), lambda: (x4(),)),
    "ZeroPad2d": (lambda: nn.ZeroPad2d(1), lambda: (x4(),)),
    "PixelShuffle": (lambda: nn.PixelShuffle(2), lambda: (torch.randn(1, 4, 2, 2),)),
    "KLDivLoss": (lambda: nn.KLDivLoss(reduction="batchmean"),
                  lambda: (torch.randn(2, 8).log_softmax(1), torch.randn(2, 8).softmax(1))),
    "CrossEntropyLoss": (lambda: nn.CrossEntropyLoss(), lambda: (torch.randn(2, 5), torch.tensor([1, 3]))),
    "MSELoss": (lambda: nn.MSELoss(reduction="none"), lambda: (torch.randn(2), torch.randn(2))),
    "CosineSimilarity": (lambda: nn.CosineSimilarity(), lambda: (torch.randn(2, 8), torch.randn(2, 8))),
    "GRUCell": (lambda: nn.GRUCell(8, 4), lambda: (torch.randn(2, 8),)),
    "RNNCell": (lambda: nn.RNNCell(8, 4), lambda: (torch.randn(2, 8),)),
    "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(8, 2, batch_first=True),
                                lambda: (torch.randn(2, 3, 8),)),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_return_one_tensor(name):
    assert name in facts.NN_TENSOR_MODULES
    make, inputs = SAMPLES[name]
    assert type(make()(*inputs())) is torch.Tensor


@pytest.mark.parametrize("method", sorted(nnmodules.RETURNS_SELF))
def test_methods_that_return_the_module_itself(method):
    m = nn.LSTM(4, 2, batch_first=True)
    args = {"to": ("cpu",), "type": (torch.float32,), "apply": (lambda mod: None,)}.get(method, ())
    kwargs = {"device": "cpu"} if method == "to_empty" else {}
    assert getattr(m, method)(*args, **kwargs) is m
    assert m.batch_first


def test_forward_is_the_call_less_its_hooks():
    fc = nn.Linear(8, 4)
    fc.register_forward_hook(lambda m, a, out: out.tolist())
    x = torch.randn(2, 8)
    assert isinstance(fc(x), list) and type(fc.forward(x)) is torch.Tensor
    out, (h, c) = nn.LSTM(8, 16, batch_first=True).forward(torch.randn(2, 5, 8))
    assert out.stride() == (16, 32, 1)


def test_lstm_cell_returns_a_pair_of_tensors():
    h, c = nn.LSTMCell(8, 4)(torch.randn(2, 8))
    assert facts.NN_TUPLE_MODULES["LSTMCell"] == ("Tensor", "Tensor")
    assert type(h) is torch.Tensor and type(c) is torch.Tensor


# ------------------------------------------------------------------ RNN facts (measured on CPU)
@pytest.mark.parametrize("cls", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("options", [{}, {"bidirectional": True, "num_layers": 2}])
@pytest.mark.parametrize("batch", [(2, 5), (3, 1), (1, 4), None])
def test_rnn_structure_and_layout(cls, batch_first, options, batch):
    rnn = getattr(nn, cls)(8, 16, batch_first=batch_first, **options)
    x = torch.randn(*(batch or (5,)), 8)
    out, state = rnn(x)
    states = state if cls == "LSTM" else (state,)
    assert len(states) == nnmodules.RNNS[cls]
    assert all(type(t) is torch.Tensor and t.is_contiguous() for t in states)
    assert type(out) is torch.Tensor
    d = out.size(-1)
    if batch is None or not batch_first:
        assert out.is_contiguous()  # unbatched, or (T, B, D): contiguous
    else:
        b, t = batch
        assert out.stride() == (d, b * d, 1)  # (T, B, D) contiguous, transposed back
        if b > 1 and t > 1:
            with pytest.raises(RuntimeError, match="view size is not compatible"):
                out.view(b, -1)
        assert out.transpose(0, 1).view(-1).numel() == out.numel()


def test_an_lstm_with_projections_is_laid_out_the_same():
    out, (h, c) = nn.LSTM(8, 16, batch_first=True, proj_size=4)(torch.randn(2, 5, 8))
    assert out.stride() == (4, 8, 1) and h.is_contiguous() and c.is_contiguous()


def test_a_packed_input_gives_a_packed_output():
    packed = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 5, 8), [5, 3], batch_first=True)
    out, (h, c) = nn.LSTM(8, 16, batch_first=True)(packed)
    assert isinstance(out, nn.utils.rnn.PackedSequence) and type(h) is torch.Tensor


@pytest.mark.cuda
def test_cudnn_lays_out_batch_first_output_the_same():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA")
    out, _ = nn.LSTM(8, 16, batch_first=True).cuda()(torch.randn(2, 5, 8, device="cuda"))
    assert out.stride() == (16, 32, 1)


# ------------------------------------------------------------------ forms
HEAD = "import torch\nimport torch.nn as nn\n\n"


def source(body: str) -> str:
    return HEAD + textwrap.dedent(body).lstrip("\n")


COPIES = {
    "a loss instance every call passes to a helper": """
        def _step(criterion, out, y):
            loss = criterion(out, y)
            return torch.tensor(loss)
        def use():
            a, b = torch.randn(3), torch.randn(3)
            _step(nn.MSELoss(reduction="sum"), a, b)
            return _step(nn.MSELoss(), a, b)
        """,
    "a local loss instance": """
        def use():
            loss = nn.KLDivLoss(reduction="batchmean")
            p, q = torch.randn(2, 4).log_softmax(1), torch.randn(2, 4).softmax(1)
            return torch.tensor(loss(p, q))
        """,
    "torch.nn spelled out": """
        def use():
            fc = torch.nn.Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "a class imported from torch.nn": """
        from torch.nn import Linear
        def use():
            fc = Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "a module moved and switched to eval": """
        class M(nn.Module):
            def __init__(self, dev="cpu"):
                super().__init__()
                self.fc = nn.Linear(4, 2).to(dev)

            def forward(self, x):
                act = nn.GELU().eval()
                return torch.tensor(act(self.fc(x)))

        def use():
            return M()(torch.randn(3, 4))
        """,
    "bound on every path": """
        def use(k=1):
            if k:
                act = nn.ReLU()
            else:
                act = nn.ReLU(inplace=True)
            return torch.tensor(act(torch.randn(3)))
        """,
    "an attribute every store of which is the same class (lightly's CO2)": """
        class Reg(nn.Module):
            def __init__(self):
                super().__init__()
                try:
                    self.kl_div = nn.KLDivLoss(reduction="batchmean", log_target=True)
                except TypeError:
                    self.kl_div = nn.KLDivLoss(reduction="batchmean")
                self.alpha = 1.0

            def forward(self, p, q):
                div = self.kl_div(p, q) + self.kl_div(q, p)
                return torch.tensor(self.alpha * 0.5 * div)

        def use():
            return Reg()(torch.randn(2, 4).log_softmax(1), torch.randn(2, 4).log_softmax(1))
        """,
    "an LSTM's hidden state": """
        def use():
            rnn = nn.LSTM(8, 16)
            out, (h, c) = rnn(torch.randn(5, 2, 8))
            return torch.tensor(c)
        """,
    "a Linear's forward": """
        def use():
            fc = nn.Linear(4, 2)
            return torch.tensor(fc.forward(torch.randn(3, 4)))
        """,
    "an LSTMCell's pair": """
        def use():
            cell = nn.LSTMCell(8, 16)
            h, c = cell(torch.randn(2, 8))
            return torch.tensor(h)
        """,
}

VIEWS = {
    "an LSTM with batch_first=True": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "a GRU's output read by index": """
        def use():
            gru = nn.GRU(8, 16, batch_first=True, bidirectional=True)
            out = gru(torch.randn(3, 4, 8))[0]
            return out.view(-1, out.size(-1))
        """,
    "an LSTM called by its forward": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn.forward(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "an attribute RNN on an input of unknown rank": """
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.RNN(8, 16, batch_first=True)

            def forward(self, x):
                assert isinstance(x, torch.Tensor)
                out, h = self.rnn(x)
                return out.view(x.size(0), -1)

        def use():
            return Enc()(torch.randn(2, 5, 8))
        """,
}

LOOKALIKES = {  # quiet; run: no copy warning, the view works
    "a helper passed a loss instance by one call, a function by another": """
        def _step(criterion, out, y):
            return torch.tensor(criterion(out, y))
        def other(a, b):
            return _step(nn.MSELoss(), a, b)
        def use():
            return _step(lambda o, t: 0.5, torch.randn(3), torch.randn(3))
        """,
    # found by a hostile review (2026-11-24): each was reported
    "a forward pre-hook feeding the RNN an unbatched input": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            rnn.register_forward_pre_hook(lambda m, a: (a[0][0],))
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "a GRU one wide": """
        def use():
            rnn = nn.GRU(8, 1, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "an LSTM projected to one": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True, proj_size=1)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "an RNN initialised again without batch_first": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            rnn.__init__(8, 16)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "batch_first changed through __dict__": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            rnn.__dict__.update(batch_first=False)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "batch_first changed through __setstate__": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            rnn.__setstate__(dict(rnn.__dict__, batch_first=False))
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "nn.Linear replaced through nn.__dict__": """
        class ListLinear(nn.Linear):
            def forward(self, x):
                return super().forward(x).tolist()
        nn.__dict__["Linear"] = ListLinear
        def use():
            fc = nn.Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "a class of the module named Linear": """
        class Linear:
            def __init__(self, *a):
                pass
            def __call__(self, x):
                return [1.0, 2.0]
        def use():
            fc = Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "nn rebound": """
        import types
        nn = types.SimpleNamespace(Linear=lambda *a: (lambda x: [1.0]))
        def use():
            fc = nn.Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "nn.Identity": """
        def use():
            same = nn.Identity()
            return torch.tensor(same([1.0, 2.0]))
        """,
    "an attribute also stored from elsewhere": """
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)
            def forward(self, x):
                return torch.tensor(self.fc(x))
        class ToList(nn.Module):
            def forward(self, x):
                return x.tolist()
        def use():
            m = M()
            m.fc = ToList()
            return m(torch.randn(3, 4))
        """,
    "a name bound to a module on one path only": """
        def use(k=0, act=lambda x: [1.0]):
            if k:
                act = nn.ReLU()
            return torch.tensor(act(torch.randn(3)))
        """,
    "a forward hook that replaces the output": """
        def use():
            fc = nn.Linear(4, 2)
            fc.register_forward_hook(lambda mod, args, out: out.tolist())
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "a patched forward called": """
        def use():
            fc = nn.Linear(4, 2)
            fc.forward = lambda x: x.tolist()
            return torch.tensor(fc.forward(torch.randn(3, 4)))
        """,
    "a replaced forward": """
        def use():
            fc = nn.Linear(4, 2)
            fc.forward = lambda x: x.tolist()
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "forward set by setattr": """
        def use():
            fc = nn.Linear(4, 2)
            setattr(fc, "forward", lambda x: x.tolist())
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "forward set by object.__setattr__": """
        def use():
            fc = nn.Linear(4, 2)
            object.__setattr__(fc, "forward", lambda x: x.tolist())
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "forward stored by a tuple target": """
        def use():
            fc = nn.Linear(4, 2)
            fc.forward, _ = (lambda x: x.tolist()), 0
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "forward stored by a for target": """
        def use():
            fc = nn.Linear(4, 2)
            for fc.forward in [lambda x: x.tolist()]:
                pass
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "the instance's class replaced": """
        class AsList(nn.Linear):
            def forward(self, x):
                return super().forward(x).tolist()
        def use():
            fc = nn.Linear(4, 2)
            fc.__class__ = AsList
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "nn.Linear replaced": """
        class AsList(nn.Module):
            def __init__(self, *a):
                super().__init__()
            def forward(self, x):
                return x.tolist()
        nn.Linear = AsList
        def use():
            fc = nn.Linear(4, 2)
            return torch.tensor(fc(torch.randn(3, 4)))
        """,
    "a PackedSequence input": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            x = nn.utils.rnn.pack_padded_sequence(torch.randn(2, 5, 8), [5, 3], batch_first=True)
            out, _ = rnn(x)
            data = out.data
            return data.view(data.size(0), -1)
        """,
    "batch_first=flag": """
        def use(flag=False):
            rnn = nn.LSTM(8, 16, batch_first=flag)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "batch_first=False": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=False)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """,
    "out.contiguous().view(...)": """
        def use():
            rnn = nn.GRU(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.contiguous().view(out.size(0), -1)
        """,
    "a legal view of a batch_first output": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.transpose(0, 1).view(-1), out.view(2, 5, 4, 4)
        """,
    "an unbatched (2-d) input": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(5, 8))
            return out.view(-1, out.size(-1) * out.size(0))
        """,
    "the hidden state viewed": """
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, (h, c) = rnn(torch.randn(2, 5, 8))
            return h.view(h.size(1), -1)
        """,
}


@pytest.mark.parametrize("name", COPIES)
def test_copies_are_reported_with_unsafe_fixes(name):
    src = source(COPIES[name])
    found = [f for f in lint_source(src) if f.code == "TRC101"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.safe
    assert copies_a_tensor(src)


@pytest.mark.parametrize("name", VIEWS)
def test_views_that_raise_are_reported(name):
    src = source(VIEWS[name])
    found = [f for f in lint_source(src) if f.code == "TRC201"]
    assert len(found) == 1 and "batch_first=True" in found[0].message
    ns: dict = {}
    exec(compile(src, "case", "exec"), ns)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ns["use"]()


def test_a_view_of_unknown_rank_names_the_unbatched_input():
    found = lint_source(source(VIEWS["an attribute RNN on an input of unknown rank"]))
    assert "x.dim() == 2" in found[0].message


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalikes_are_quiet(name):
    src = source(LOOKALIKES[name])
    assert lint_source(src) == []
    linear = nn.Linear
    try:
        assert not copies_a_tensor(src)  # runs use(): the views work
    finally:
        nn.Linear = linear  # a case replaces it


def test_the_caveat_is_said():
    assert "forward hook" in nnmodules.NN_OUTPUT
    assert inspect.getdoc(nnmodules).startswith("Instances of torch.nn module classes")


def test_a_patched_call_leaves_the_output_unknown():
    """``nn.LSTM.__call__`` replaced in the module: what a call returns is the patch's."""
    src = source("""
        class Frames:
            def view(self, *a):
                return "view"
            def reshape(self, *a):
                return "reshape"
        nn.LSTM.__call__ = lambda self, x: (Frames(), None)
        def use():
            rnn = nn.LSTM(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(2, -1)
        """)
    assert lint_source(src) == []
    call = nn.LSTM.__call__
    try:
        ns: dict = {}
        exec(compile(src, "case", "exec"), ns)
        assert ns["use"]() == "view"
    finally:
        nn.LSTM.__call__ = call


@pytest.mark.parametrize("cls, article", [("GRU", "a"), ("LSTM", "an"), ("RNN", "an")])
def test_the_message_names_the_class_with_its_article(cls, article):
    src = source(f"""
        def use():
            rnn = nn.{cls}(8, 16, batch_first=True)
            out, _ = rnn(torch.randn(2, 5, 8))
            return out.view(out.size(0), -1)
        """)
    found = [f.message for f in lint_source(src) if f.code == "TRC201"]
    assert len(found) == 1 and f"after {article} {cls} with batch_first=True" in found[0]
