"""Tests of the verifier: input synthesis, equivalence verdicts, verify_fix, CLI, timing."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.verify


from flake8_torchcopy.verify import (  # noqa: E402
    Report,
    changed_expressions,
    free_names,
    verify_expressions,
    verify_fix,
)
from flake8_torchcopy.verify.bench import bench_pair, bench_shape, parse_sizes  # noqa: E402
from flake8_torchcopy.verify.compare import tensors_equal  # noqa: E402
from flake8_torchcopy.verify.inputs import (  # noqa: E402
    AUTOGRAD,
    GRAD_MODES,
    RANKS,
    SPECIALS,
    build_inputs,
    layout_applies,
    make_cases,
)
from flake8_torchcopy.verify.specs import DTYPES, FLOAT_DTYPES, LAYOUTS, SpecError, parse_spec  # noqa: E402
from flake8_torchcopy.verify_command import main  # noqa: E402

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

# ---------------------------------------------------------------- must hold

EQUIVALENT = [
    ("t.clone().detach()", "t.detach().clone()"),
]
IMPROVED = [  # (before, after, property that improves, the rule the rewrite comes from)
    # backward through copy_ raises for a sparse COO input that requires grad; the clone's works.
    # Since verdicts are strict that is an improvement only for TRC104, whose rescue it is
    # (with no rule named it is a mismatch: see test_verify_strict.py)
    ("torch.empty_like(t).copy_(t)", "t.clone()", "backward", "TRC104"),
    ("torch.tensor(t)", "t.detach().clone()", "warnings", "TRC101"),
    ("torch.tensor(t, dtype=torch.float64)", "t.detach().to(dtype=torch.float64, copy=True)", "warnings", "TRC101"),
    # no rule named: the .view() error is the one a hand-written rewrite may remove
    ("x.t().view(-1)", "x.t().reshape(-1)", "exception", None),
]
MISMATCH = [  # (before, after, a property that must be among the differences)
    ("torch.empty_like(t).copy_(t)", "t.detach().clone()", "grads"),
    ("torch.as_tensor(t)", "t.detach().clone()", "aliasing"),
    ("x.contiguous().view(-1)", "x.reshape(-1)", "aliasing"),
    ("torch.tensor(t.tolist())", "t.detach().clone()", "dtype"),
    ("t.detach().to(t.dtype)", "t.detach().clone()", "aliasing"),
]


@pytest.mark.parametrize("before,after", EQUIVALENT)
def test_must_hold_equivalent(before, after):
    rep = verify_expressions(before, after, devices="cpu")
    assert rep.status == "equivalent", rep.summary()
    assert rep.cases >= 100
    assert rep.mismatches == [] and rep.improvements == []


@pytest.mark.parametrize("before,after,prop,rule", IMPROVED)
def test_must_hold_improved(before, after, prop, rule):
    rep = verify_expressions(before, after, devices="cpu", rule=rule)
    assert rep.status == "improved", rep.summary()
    assert rep.mismatch_count == 0
    assert {i["property"] for i in rep.improvements} == {prop}


def test_view_after_t_skips_cases_where_both_raise():
    rep = verify_expressions("x.t().view(-1)", "x.t().reshape(-1)", devices="cpu")
    # x.t() raises for rank > 2 in both versions: those cases are skipped, not counted.
    assert rep.skipped["both raised"] > 0
    assert rep.both_raised.get("RuntimeError", 0) > 0
    assert rep.cases + sum(rep.skipped.values()) == rep.tried


@pytest.mark.parametrize("before,after,prop", MISMATCH)
def test_must_hold_mismatch(before, after, prop):
    rep = verify_expressions(before, after, devices="cpu")
    assert rep.status == "mismatch", rep.summary()
    assert prop in rep.mismatch_properties, rep.mismatch_properties
    first = rep.mismatches[0]
    assert set(first) >= {"case", "property", "before", "after"}
    assert first["before"] != first["after"]


def test_empty_like_copy_mismatch_is_about_gradient_flow_only_when_grad_flows():
    rep = verify_expressions("torch.empty_like(t).copy_(t)", "t.detach().clone()", devices="cpu")
    for m in rep.mismatches:
        assert "requires_grad" in m["case"] and re.search(r"\[grad[,\]]", m["case"]), m["case"]


def test_contiguous_view_vs_reshape_differs_only_on_viewable_non_contiguous_inputs():
    rep = verify_expressions("x.contiguous().view(-1)", "x.reshape(-1)", devices="cpu")
    for m in rep.mismatches:
        layout = re.search(r"x=\w+\[[\d, ]*\] (\w+) ", m["case"]).group(1)
        assert layout != "contiguous", m["case"]  # a contiguous input gives a view either way
    assert 0 < rep.mismatch_count < rep.cases


# ---------------------------------------------------------------- other verdicts


def test_value_difference_is_a_mismatch():
    rep = verify_expressions("t + 1", "t + 2", devices="cpu", max_cases=40)
    assert rep.status == "mismatch"
    assert "values" in rep.mismatch_properties


def test_in_place_rewrite_is_a_mismatch():
    rep = verify_expressions("t + 1", "t.add_(1)", devices="cpu")
    assert rep.status == "mismatch"
    assert "aliasing" in rep.mismatch_properties or "inputs_after" in rep.mismatch_properties


def test_new_warning_is_a_mismatch_not_an_improvement():
    rep = verify_expressions("t.detach().clone()", "torch.tensor(t)", devices="cpu")
    assert rep.status == "mismatch"
    assert rep.mismatches[0]["property"] == "warnings"


def test_rewrite_that_raises_is_a_mismatch():
    rep = verify_expressions("t.clone()", "t.view(torch.int64)", devices="cpu")
    assert rep.status == "mismatch"
    assert "exception" in rep.mismatch_properties


# ---------------------------------------------------------------- what used to pass and must not


def test_strides_and_memory_format_are_compared():
    rep = verify_expressions("t.clone()", "t.clone(memory_format=torch.contiguous_format)", devices="cpu")
    assert rep.status == "mismatch"
    assert {"strides", "memory_format"} <= set(rep.mismatch_properties)


def test_a_rewrite_that_raises_on_an_empty_tensor_is_caught():
    rep = verify_expressions("t.clone()", "t.clone() if t.numel() else t.max()", devices="cpu")
    assert rep.status == "mismatch"
    assert all("0" in re.search(r"\[([\d, ]*)\]", m["case"]).group(1).split(", ") for m in rep.mismatches)


def test_aliasing_between_outputs_and_identity():
    # one tensor returned twice against two equal copies
    rep = verify_expressions("(lambda u: (u, u))(t.clone())", "(t.clone(), t.clone())", devices="cpu")
    assert rep.status == "mismatch" and "output_aliasing" in rep.mismatch_properties
    # the input itself against a view of it: same memory, not the same object
    rep = verify_expressions("t", "t.view(t.shape)", inputs={"t": "tensor:layout=contiguous"}, devices="cpu")
    assert rep.status == "mismatch" and "identity" in rep.mismatch_properties


def test_version_counter_sharing():
    # .data aliases but hides in-place writes from autograd; .detach() shares the counter
    rep = verify_expressions("t.detach()", "t.data", inputs={"t": "tensor:layout=contiguous"}, devices="cpu")
    assert rep.status == "mismatch"
    assert "version_counter" in rep.mismatch_properties


def test_conj_and_neg_bits_are_compared():
    rep = verify_expressions("t.conj()", "t.conj_physical()", inputs={"t": "tensor:complex"}, devices="cpu")
    assert rep.status == "mismatch" and "conj_neg" in rep.mismatch_properties


def test_improved_needs_cases_where_both_ran():
    rep = verify_expressions("torch.tensr(t)", "t * 2", devices="cpu")
    assert rep.status == "unverified" and "never ran" in rep.reason
    rep = verify_expressions("t.view(n)", "t.reshape(n)", devices="cpu")  # n never bound
    assert rep.status == "unverified"


def test_random_ops_are_seeded_alike_on_both_sides():
    rep = verify_expressions("torch.randn_like(t)", "torch.randn_like(t)",
                             inputs={"t": "tensor:float"}, devices="cpu")
    assert rep.status == "equivalent", rep.summary()
    rep = verify_expressions("torch.rand(3)", "torch.rand(3) * 1", inputs={}, devices="cpu")
    assert rep.status == "equivalent", rep.summary()


def test_the_default_dtype_is_varied():
    rep = verify_expressions("torch.tensor(1.0) + t", "torch.tensor(1.0, dtype=torch.float32) + t",
                             inputs={"t": "tensor:dtype=int64"}, devices="cpu")
    assert rep.status == "mismatch"
    assert all("default dtype float64" in m["case"] for m in rep.mismatches)


def test_unsupported_dtypes_and_layouts_are_skipped_and_counted_never_a_traceback():
    for spec in ("tensor:dtype=float8_e4m3fn", "tensor:layout=sparse_coo", "tensor:layout=sparse_csr",
                 "tensor:dtype=float8_e5m2,layout=neg"):
        rep = verify_expressions("t.clone()", "t.clone()", inputs={"t": spec}, devices="cpu")
        assert rep.status in ("equivalent", "unverified"), (spec, rep.summary())
        assert rep.cases + sum(rep.skipped.values()) == rep.tried
    rep = verify_expressions("t.clone()", "t.clone()", inputs={"t": "tensor:dtype=bool,layout=neg"}, devices="cpu")
    assert rep.status == "unverified" and rep.skipped["unsupported input"] == rep.tried


def test_cases_both_versions_reject_are_reported_by_exception():
    rep = verify_expressions("t.sum(dim=1)", "t.sum(1)", devices="cpu")
    assert rep.status == "equivalent"
    assert rep.both_raised.get("IndexError", 0) > 0  # rank 0 and 1 inputs have no dim 1
    assert rep.skipped["both raised"] == sum(rep.both_raised.values())
    assert "rejected by both versions: IndexError" in rep.summary()


def test_two_tensor_inputs_share_shape_and_mismatched_shapes_are_skipped():
    rep = verify_expressions("a * b", "torch.mul(a, b)", devices="cpu")
    assert rep.status == "equivalent", rep.summary()
    assert rep.skipped["both raised"] > 0  # the cases with different shapes


def test_int_input_spec():
    rep = verify_expressions("x.view(n, -1)", "x.reshape(n, -1)",
                             inputs={"n": "int:1..4", "x": "tensor:rank=2"}, devices="cpu")
    assert rep.status == "improved", rep.summary()
    assert rep.inputs == {"n": "int:1..4", "x": "tensor:rank=2"}


def test_construction_failures_are_skipped_not_mismatches():
    rep = verify_expressions("t.clone()", "t.clone()", inputs={"t": "tensor:requires_grad=true"}, devices="cpu")
    assert rep.status == "equivalent"
    assert rep.skipped["unsupported input"] > 0  # integer tensors cannot require grad


def test_unverified_when_nothing_runs():
    rep = verify_expressions("t.nonexistent_method()", "t.nonexistent_method()", devices="cpu")
    assert rep.status == "unverified" and rep.reason
    assert verify_expressions("t.clone(", "t.clone()").status == "unverified"
    bad = verify_expressions("t.clone()", "t.clone()", inputs={"t": "matrix"})
    assert bad.status == "unverified" and "synthesize" in bad.reason


def test_no_tensor_inputs():
    rep = verify_expressions("torch.zeros(n)", "torch.zeros((n,))", inputs={"n": "int:0..3"}, devices="cpu")
    assert rep.status == "equivalent"


def test_nan_and_negative_zero_bits():
    a = torch.tensor([float("nan"), 0.0])
    assert tensors_equal(a, a.clone())
    assert not tensors_equal(torch.tensor([0.0]), torch.tensor([-0.0]))
    assert not tensors_equal(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))


def test_free_names():
    assert free_names("torch.tensor(t, dtype=x.dtype) + len(y) + np.pi + copy.copy(z)") == ["t", "x", "y", "z"]
    assert free_names("[v * w for v in vs]") == ["w", "vs"] or set(free_names("[v * w for v in vs]")) == {"w", "vs"}


# ---------------------------------------------------------------- input synthesis


def test_covering_design():
    cases = make_cases({"t": parse_spec("tensor")}, seed=3)
    assert 100 <= len(cases) <= 1000
    seen = {(c.tensors["t"].dtype, c.tensors["t"].layout, c.tensors["t"].rank) for c in cases}
    assert seen == {(d, lay, r) for d in DTYPES for lay in LAYOUTS for r in RANKS + (5,)
                    if layout_applies(lay, d, r) and (r < 5 or lay == "channels_last_3d")}
    assert {"int8", "int16", "complex128", "float8_e4m3fn"} <= {d for d, _, _ in seen}
    ag = {(c.tensors["t"].requires_grad, c.tensors["t"].kind, c.grad_mode)
          for c in cases if c.tensors["t"].dtype in FLOAT_DTYPES}
    assert ag == {(rg, k, g) for rg, k in AUTOGRAD for g in GRAD_MODES}
    assert all(not c.tensors["t"].requires_grad for c in cases if c.tensors["t"].dtype not in FLOAT_DTYPES)
    # the corners: empty tensors, special values of every kind, the other default dtype
    assert any(0 in c.tensors["t"].shape for c in cases)
    assert {c.tensors["t"].special for c in cases} == {"", *SPECIALS}
    assert {c.default_dtype for c in cases} == {"float32", "float64"}
    # seeded
    again = make_cases({"t": parse_spec("tensor")}, seed=3)
    assert [c.describe() for c in again] == [c.describe() for c in cases]


def test_several_inputs_get_mixed_dtypes():
    cases = make_cases({"a": parse_spec("tensor"), "b": parse_spec("tensor")}, seed=0)
    assert sum(c.tensors["a"].dtype != c.tensors["b"].dtype for c in cases) > len(cases) // 4


def test_layouts_and_autograd_kinds_are_built_as_described():
    cases = make_cases({"t": parse_spec("tensor")}, seed=0)
    checked, unsupported = set(), set()
    for case in cases:
        tc = case.tensors["t"]
        try:
            t = build_inputs(case, "cpu", 0)["t"]
        except (RuntimeError, NotImplementedError):
            unsupported.add((tc.dtype, tc.layout))
            continue
        assert tuple(t.shape) == tc.shape and t.dtype == getattr(torch, tc.dtype)
        big = [s for s in tc.shape if s > 1]
        if tc.layout == "expanded" and big:
            assert 0 in t.stride()
        if tc.layout == "stepped" and tc.shape[-1] > 1:
            assert t.stride()[-1] == 2
        if tc.layout == "offset":
            assert t.storage_offset() > 0
        if tc.layout == "channels_last" and 0 not in tc.shape:  # always real: C, H, W > 1
            assert t.is_contiguous(memory_format=torch.channels_last) and not t.is_contiguous()
        if tc.layout == "channels_last_3d" and 0 not in tc.shape:
            assert t.is_contiguous(memory_format=torch.channels_last_3d) and not t.is_contiguous()
        if tc.layout == "transposed" and tc.shape[-1] > 1 and tc.shape[-2] > 1 and 0 not in tc.shape:
            assert not t.is_contiguous()
        assert t.is_conj() == (tc.layout == "conj")
        assert t.is_neg() == (tc.layout == "neg")
        assert t.layout == {"sparse_coo": torch.sparse_coo, "sparse_csr": torch.sparse_csr}.get(
            tc.layout, torch.strided)
        assert t.requires_grad == tc.requires_grad
        assert isinstance(t, torch.nn.Parameter) == (tc.kind == "param")
        assert t.is_inference() == (tc.kind == "inference")
        if tc.kind == "nonleaf":
            assert not t.is_leaf
        checked.add(tc.layout)
    assert checked == set(LAYOUTS)
    # only dtypes without negation or sparse support fail to build
    assert {d for d, _ in unsupported} <= {"bool", "float8_e4m3fn", "float8_e5m2", "uint8"}, unsupported


def test_fresh_inputs_do_not_share_memory_but_have_equal_values():
    case = make_cases({"t": parse_spec("tensor:rank=2,dtype=float32,layout=contiguous")}, seed=0)[0]
    a, b = build_inputs(case, "cpu", 7)["t"], build_inputs(case, "cpu", 7)["t"]
    assert tensors_equal(a, b)
    assert a.untyped_storage().data_ptr() != b.untyped_storage().data_ptr()


def test_spec_parsing():
    assert parse_spec("int:1..4").kind == "int"
    s = parse_spec("tensor:rank=1..2,dtype=float32|int64,shape=[2,N]")
    assert s.opt("rank") == "1..2" and s.opt("shape") == "[2,N]"
    with pytest.raises(SpecError):
        parse_spec("tensor:colour=red")
    with pytest.raises(SpecError):
        parse_spec("dtype:float99")
    cases = make_cases({"N": parse_spec("int:2..3"), "x": parse_spec("tensor:shape=[N,4]")}, seed=0)
    assert all(c.tensors["x"].shape == (c.values["N"], 4) for c in cases)


# ---------------------------------------------------------------- verify_fix


OLD = """import torch as th

SCALE = 2

def f(t, x):
    y = th.tensor(t)
    return y, x.t().view(-1)
"""


def test_changed_expressions_finds_smallest_pairs():
    new = OLD.replace("th.tensor(t)", "t.detach().clone()").replace(".view(-1)", ".reshape(-1)")
    assert changed_expressions(OLD, new) == [
        ("th.tensor(t)", "t.detach().clone()"),
        ("x.t().view(-1)", "x.t().reshape(-1)"),
    ]


def test_verify_fix_improved_with_import_alias():
    new = OLD.replace("th.tensor(t)", "t.detach().clone()")
    rep = verify_fix(OLD, new)
    assert rep.status == "improved", rep.summary()
    assert rep.before == "th.tensor(t)"


def test_verify_fix_several_changes_and_mismatch():
    new = OLD.replace("th.tensor(t)", "th.as_tensor(t)").replace(".view(-1)", ".reshape(-1)")
    rep = verify_fix(OLD, new)
    assert rep.status == "mismatch"
    assert len(rep.parts) == 2 and rep.parts[1].status == "improved"


def test_verify_fix_attribute_inputs_and_module_constants():
    old = "import torch\nN = 3\nclass M:\n    def g(self):\n        return self.w.clone().detach()[:N]\n"
    new = old.replace("self.w.clone().detach()", "self.w.detach().clone()")
    rep = verify_fix(old, new)
    assert rep.status == "equivalent", rep.summary()
    assert "self.w" in rep.inputs


def test_verify_fix_checks_the_enclosing_expression():
    """A TRC107 fix: the smallest differing pair (from_numpy(...) vs detach())
    aliases differently, the whole expression as applied does not."""
    old = "import torch\nt = torch.randn(3)\ny = torch.from_numpy(t.detach().numpy()).clone()\n"
    new = old.replace("torch.from_numpy(t.detach().numpy()).clone()", "t.detach().clone()")
    assert changed_expressions(old, new) == [("torch.from_numpy(t.detach().numpy())", "t.detach()")]
    rep = verify_fix(old, new, max_cases=120)
    assert rep.before == "torch.from_numpy(t.detach().numpy()).clone()"
    assert rep.status == "improved", rep.summary()


def test_verify_fix_abstracts_unknown_common_operands_and_keeps_unknown_calls():
    old = ("import torch\ndef f(g, load, k):\n"
           "    return g.op('Constant', value_t=load(k)[:k].clone().detach())\n")
    new = old.replace(".clone().detach()", ".detach().clone()")
    rep = verify_fix(old, new, max_cases=60)
    # `g.op` is unknown (not widened into); `load(k)[:k]` is the same on both sides: any tensor
    assert (rep.before, rep.after) == ("_operand0.clone().detach()", "_operand0.detach().clone()")
    assert rep.status == "equivalent", rep.summary()


def test_verify_fix_unverified_when_not_an_expression():
    new = OLD.replace("    y = th.tensor(t)\n", "    y = th.tensor(t)\n    y += 1\n")
    rep = verify_fix(OLD, new)
    assert rep.status == "unverified" and "isolate" in rep.reason
    assert verify_fix(OLD, OLD).status == "equivalent"
    assert verify_fix(OLD, "def (").status == "unverified"


# ---------------------------------------------------------------- JSON, CLI, timing


def test_json_shape():
    rep = verify_expressions("torch.as_tensor(t)", "t.detach().clone()", devices="cpu", max_cases=30)
    data = json.loads(rep.to_json())
    for key in ("before", "after", "status", "cases", "devices", "mismatches", "speedup", "timings"):
        assert key in data
    assert isinstance(data["cases"], int) and data["devices"] == ["cpu"]
    assert set(data["mismatches"][0]) >= {"case", "property", "before", "after"}


def test_cli_exit_codes(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["--before", "t.clone().detach()", "--after", "t.detach().clone()", "--no-bench",
                 "--device", "cpu", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["status"] == "equivalent"
    assert main(["--before", "torch.as_tensor(t)", "--after", "t.detach().clone()", "--no-bench",
                 "--max-cases", "20"]) == 1
    assert main(["--before", "x.view(n, -1)", "--after", "x.reshape(n, -1)", "--input", "n=int:1..3",
                 "--input", "x=tensor:rank=2", "--no-bench", "--device", "cpu"]) == 0
    assert main(["--before", "t.nope()", "--after", "t.nope()", "--no-bench"]) == 3  # unverified
    assert main(["--before", "t", "--after", "t", "--input", "bad spec", "--no-bench"]) == 2  # usage
    assert main(["--before", "t", "--no-bench"]) == 2
    assert main(["--before", "t", "--after", "t", "--sizes", "0"]) == 2
    capsys.readouterr()


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU path")
def test_cli_cuda_without_gpu_runs_nothing():
    # cuda asked for, none present: nothing runs, exit 2
    assert main(["--before", "t.clone()", "--after", "t.clone()", "--device", "cuda", "--no-bench"]) == 2


def test_bench_and_plot(tmp_path, capsys):
    svg, js = tmp_path / "p.svg", tmp_path / "r.json"
    rc = main(["--before", "torch.tensor(t)", "--after", "t.detach().clone()", "--device", "cpu",
               "--sizes", "1,2^4", "--min-run-time", "0.002", "--repeats", "3", "--json", str(js),
               "--plot", str(svg), "--max-cases", "10"])
    assert rc == 0
    data = json.loads(js.read_text())
    assert set(data["speedup"]["cpu"]) == {"1", "16"}
    assert all(r > 0 for r in data["speedup"]["cpu"].values())
    t = data["timings"]["cpu"]["requires_grad=True"]["16"]
    for side in ("before", "after"):
        lo, hi = t[side]["range"]
        assert t[side]["repeats"] == 3 and lo <= t[side]["median"] <= hi
    assert t["ratio_range"][0] <= t["ratio"] <= t["ratio_range"][1]
    assert svg.read_text().lstrip().startswith("<?xml")  # the format follows the file name
    capsys.readouterr()


def test_bench_has_no_size_axis_for_0d_inputs_and_says_when_a_fix_only_makes_code_run(capsys):
    rep = verify_expressions("torch.tensor([a, b])", "torch.stack([a, b]).detach()", bench=True,
                             inputs={"a": "tensor:rank=0", "b": "tensor:rank=0"}, sizes=(1, 1024),
                             max_cases=20, min_run_time=0.002, repeats=2)
    assert list(rep.speedup["cpu"]) == ["0-d"]
    rep = verify_expressions("x.t().view(-1)", "x.t().reshape(-1)", inputs={"x": "tensor:rank=2"},
                             bench=True, sizes=(1, 1024), max_cases=30, min_run_time=0.002, repeats=2)
    assert rep.status == "improved"
    assert "1024" not in rep.speedup["cpu"]  # the original raises there: no ratio
    assert main(["--before", "x.t().view(-1)", "--after", "x.t().reshape(-1)", "--input", "x=tensor:rank=2",
                 "--sizes", "1024", "--min-run-time", "0.002", "--repeats", "2", "--max-cases", "30"]) == 0
    assert "speedup cpu" in capsys.readouterr().out.split("makes code run at 1024")[0]


def test_plot_draws_the_raising_side(tmp_path):
    from flake8_torchcopy.verify.bench import plot_timings

    timings = {"cpu": {"requires_grad=False": {
        "1": {"before": {"median": 1e-6, "range": [1e-6, 2e-6]}, "after": {"median": 5e-7, "range": [4e-7, 6e-7]}},
        "16": {"before": {"error": "RuntimeError: view"}, "after": {"median": 6e-7, "range": [5e-7, 7e-7]}}}}}
    out = tmp_path / "p.svg"
    plot_timings([("x.view -> x.reshape", timings)], str(out))
    assert "before raises" in out.read_text()


def test_bench_records_errors_instead_of_times():
    from flake8_torchcopy.verify.expressions import base_globals
    from flake8_torchcopy.verify.specs import parse_spec as ps

    code_b = compile("x.t().view(-1)", "<b>", "eval")
    code_a = compile("x.t().reshape(-1)", "<a>", "eval")
    sp, tm = bench_pair(code_b, code_a, {"x": ps("tensor:rank=2")}, ["cpu"], [16], base_globals(),
                        min_run_time=0.005)
    assert "error" in tm["cpu"]["requires_grad=False"]["16"]["before"]
    assert "median" in tm["cpu"]["requires_grad=False"]["16"]["after"]
    assert sp["cpu"] == {}


def test_sizes_and_shapes():
    assert parse_sizes("1,16,2^10") == (1, 16, 1024)
    with pytest.raises(ValueError):
        parse_sizes("0")
    assert bench_shape(2 ** 10, 3) == (16, 8, 8)
    assert bench_shape(1, 2) == (1, 1)


def test_report_summary_and_ok():
    rep = Report(before="a", after="b", status="improved")
    assert rep.ok and "improved" in rep.summary()


def _without_torch(tmp_path, *args):
    fake = tmp_path / "torch"
    fake.mkdir(exist_ok=True)
    (fake / "__init__.py").write_text("raise ImportError('no torch here')\n")
    code = f"import sys; from flake8_torchcopy.verify_command import main; sys.exit(main({list(args)!r}))"
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


def test_help_and_usage_errors_work_without_torch(tmp_path):
    proc = _without_torch(tmp_path, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "--before" in proc.stdout and "exit status" in proc.stdout
    proc = _without_torch(tmp_path, "--device", "tpu")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr
    proc = _without_torch(tmp_path, "--before", "t", "--after", "t")
    assert proc.returncode == 2 and "needs torch" in proc.stderr and "Traceback" not in proc.stderr


def test_flake8_torchcopy_import_does_not_import_torch():
    code = "import sys, flake8_torchcopy; print('torch' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


# ---------------------------------------------------------------- CUDA


@pytest.mark.cuda
@CUDA
@pytest.mark.parametrize("before,after", EQUIVALENT)
def test_cuda_equivalent(before, after):
    rep = verify_expressions(before, after, devices="cuda")
    assert rep.devices == ["cuda"] and rep.status == "equivalent", rep.summary()


@pytest.mark.cuda
@CUDA
@pytest.mark.parametrize("before,after,prop", MISMATCH)
def test_cuda_mismatch(before, after, prop):
    rep = verify_expressions(before, after, devices="cuda")
    assert rep.status == "mismatch" and prop in rep.mismatch_properties


@pytest.mark.cuda
@CUDA
def test_cuda_improved_and_bench_memory():
    rep = verify_expressions("torch.tensor(t)", "t.detach().clone()", devices="all", bench=True,
                             sizes=[1, 2 ** 16], min_run_time=0.01, max_cases=40)
    assert rep.status == "improved" and rep.devices == ["cpu", "cuda"]
    entry = rep.timings["cuda"]["requires_grad=False"][str(2 ** 16)]
    assert entry["after"]["peak_extra_bytes"] >= 4 * 2 ** 16
    assert "cuda" in rep.speedup
