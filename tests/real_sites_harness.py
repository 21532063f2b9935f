"""What the real-site tests share (tests/test_real_sites.py, tests/test_real_sites_3.py,
tests/test_real_sites_4.py): a
site's record, the line its ``# site:`` comment marks, the reports of a fixture, and running
a fixture's module with torch."""
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

from flake8_torchcopy import lint_source

VIEW_ERROR = "view size is not compatible"


@dataclass(frozen=True)
class Site:
    name: str  # repository and module:line as the thread reports it
    path: str  # fixture, relative to its batch's folder
    nth: int  # which ``# site:`` line of the fixture (0-based)
    code: str
    missing: str = ""  # the evidence the analysis lacks; empty when the site is found


def site_line(root: Path, site: Site) -> int:
    """The line of the fixture that the site's ``# site:`` comment marks."""
    lines = (root / site.path).read_text().splitlines()
    marked = [i + 1 for i, line in enumerate(lines) if "# site:" in line]
    assert f"# site: {site.code}" in lines[marked[site.nth] - 1]
    return marked[site.nth]


def reports(root: Path, path: str):
    """``(line, code)`` of every report in the fixture."""
    full = root / path
    return [(f.line, f.code) for f in lint_source(full.read_text(), str(full))]


def param(site: Site):
    """The site as a test parameter: a strict xfail naming what is missing, where it is."""
    marks = [pytest.mark.xfail(strict=True, reason=site.missing)] if site.missing else []
    label = site.name.split()[0].split("/")[1] + f"-{site.path.split('/')[-1][:-3]}-{site.nth}"
    return pytest.param(site, id=label, marks=marks)


def load(root: Path, path: str, stubs: Optional[Dict[str, object]] = None, package: str = "") -> dict:
    """Run the fixture's module (``stubs`` in ``sys.modules`` meanwhile); its namespace."""
    stubs = stubs or {}
    ns: dict = {"__name__": (package + ".site") if package else "real_site", "__package__": package}
    saved = {k: sys.modules.get(k) for k in stubs}
    sys.modules.update(stubs)  # type: ignore[arg-type]
    try:
        exec(compile((root / path).read_text(), path, "exec"), ns)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return ns


def warns_copy(fn: Callable[[], object]) -> bool:
    """Does calling ``fn`` warn "To copy construct from a tensor"?"""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return any("copy construct from a tensor" in str(w.message) for w in caught)
