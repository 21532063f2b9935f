"""The README's console block is what flake8 prints on the bundled examples today."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_shows_what_flake8_prints_on_the_examples():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ flake8 --select TRC examples/\n(.*?)```", readme, re.S)
    assert block is not None, "the README lost its example run"
    done = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "TRC", "examples/"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout == block.group(1)
    assert done.stdout.count("\n") >= 8  # every example reported
