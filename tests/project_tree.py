"""Writes the files of a small project to disk (dedented) for the cross-module tests."""
import textwrap
from pathlib import Path


def write_tree(root: Path, files: dict) -> None:
    """Each ``name -> text`` of ``files`` as a file under ``root`` (directories made)."""
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))
