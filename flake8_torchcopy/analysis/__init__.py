"""Static analysis shared by every rule: torch names, tensor-ness, sizes and layouts.

- :mod:`.symbolic`: sizes as monomials of symbols (``B * N``, ``C // heads``).
- :mod:`.values`: what is known about a value (tensor or not, sizes, strides).
- :mod:`.torchapi`: facts about torch's API (which calls return tensors).
- :mod:`.torchsem`: PyTorch semantics: what torch calls, tensor methods (a table of
  handlers), attributes and indexing yield.
- :mod:`.layout`: how permutes/views change sizes and strides; view legality.
- :mod:`.narrowing`: what ``isinstance``/``is None`` tests prove in each branch.
- :mod:`.exprs`: expression evaluation in one scope (binding and sizes are its mixins).
- :mod:`.flow`, :mod:`.statements`: the one traversal: statements, branches, loops, joins.
- :mod:`.context`: the questions rules ask (the only part of the analysis they see).
- :mod:`.visitor`, :mod:`.sink`: what the walker calls for each node, and what reports go
  to; the engine's rule runner (:mod:`flake8_torchcopy.rule_runner`) implements both.

The analysis knows no rule: ``docs/analysis.md`` ("Structure") lists every module.
"""
