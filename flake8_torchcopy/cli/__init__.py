"""``torchcopy-fix``, the command-line tool: everything here serves it, nothing in the
core (``engine``, ``analysis``, ``rules``) or the flake8 plugin imports it.

- :mod:`.app`: arguments, ``main``, what is printed and the exit status;
- :mod:`.settings`: the one settings object of a run (command line over config file);
- :mod:`.fixer`: one file: read, lint, fix through ``engine.fix_rounds``, vet, check;
- :mod:`.vetting`: ``--verify``, asking the verifier about each fix before it is applied;
- :mod:`.runner`: files in worker processes, the progress bar;
- :mod:`.report`: the output formats (text, json, sarif, github) and the summary line;
- :mod:`.results`: what processing a file gives back, with named fields;
- helpers: :mod:`.config` (pyproject.toml), :mod:`.discovery` (which files),
  :mod:`.files` (decoding, writing),
  :mod:`.sourcefile` (a plain file or a notebook), :mod:`.notebook`, :mod:`.noqa`.
"""
from .app import main

__all__ = ["main"]
