"""The claims rule messages and notes make, checked by executing them with the verifier.

(Every example's fix, as applied, is verified in ``test_verify_rules.py``; there is one
verifier, :mod:`flake8_torchcopy.verify`, and no second oracle here.)
"""
import re

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.verify

from flake8_torchcopy.verify import verify_expressions  # noqa: E402


def test_the_tolist_round_trip_really_changes_the_dtype():
    """TRC107: 'a copy through Python lists changes the dtype'."""
    rep = verify_expressions("torch.tensor(t.tolist())", "t.detach().clone()",
                             inputs={"t": "tensor:dtype=float64|float16|int32"}, devices="cpu")
    assert rep.status == "mismatch"
    assert "dtype" in rep.mismatch_properties


def test_the_view_raises_unless_n_or_heads_is_1():
    """TRC201's first example: 'raises RuntimeError unless n == 1 or self.heads == 1'."""
    rep = verify_expressions(
        "o.transpose(1, 2).view(b, n, h * d)", "o.transpose(1, 2).reshape(b, n, h * d)",
        inputs={"b": "int:1..2", "n": "int:1..3", "h": "int:1..3", "d": "int:2..3",
                "o": "tensor:shape=[b, h, n, d],layout=contiguous"}, devices="cpu")
    assert rep.status == "improved", rep.summary()  # equal wherever the view ran
    assert rep.improvements
    for imp in rep.improvements:  # it raised only where n > 1 and h > 1
        assert imp["property"] == "exception" and "view size is not compatible" in imp["before"]
        assert not re.search(r"\b[nh]=1\b", imp["case"]), imp["case"]
