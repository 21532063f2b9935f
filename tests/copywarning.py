"""Run a case's source with torch and tell whether ``torch.tensor`` copy-constructed from a
tensor: it warns exactly then.  Shared by the tests whose reports claim that copy."""
import warnings

import pytest


def copies_a_tensor(source: str, run: str = "use()") -> bool:
    """Execute ``source``, then ``run`` in its namespace: did a copy-construct warning come?"""
    pytest.importorskip("torch")
    ns: dict = {}
    exec(compile(source, "case", "exec"), ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        eval(run, ns)
    return any("copy construct from a tensor" in str(w.message) for w in caught)
