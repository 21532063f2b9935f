"""Helpers the corpus-round and review tests share: a snippet's warnings when run, and the
safety of its one finding's fix."""
import textwrap
import warnings

from flake8_torchcopy import lint_source


def run_warnings(source: str, name: str, *args) -> list:
    """The messages of the warnings ``name(*args)`` of the dedented ``source`` gives."""
    ns: dict = {}
    exec(textwrap.dedent(source), ns)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ns[name](*args)
    return [str(w.message) for w in caught]


def safety(src: str, code: str) -> str:
    """``"safe"`` or ``"unsafe"``: the fix of the one ``code`` finding in ``src``."""
    got = [f for f in lint_source(textwrap.dedent(src).lstrip("\n")) if f.code == code]
    assert len(got) == 1, got
    return "safe" if got[0].fix is not None and got[0].fix.safe else "unsafe"
