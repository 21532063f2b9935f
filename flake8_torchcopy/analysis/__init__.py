"""Static analysis shared by every rule: torch names, tensor-ness, sizes and layouts.

- :mod:`.symbolic`: sizes as monomials of symbols (``B * N``, ``C // heads``).
- :mod:`.values`: what is known about a value (tensor or not, sizes, strides).
- :mod:`.torchapi`: facts about torch's API (which calls return tensors).
- :mod:`.torchsem`: PyTorch semantics: what torch calls, tensor methods (a table of
  handlers), attributes and indexing yield.
- :mod:`.layout`: how permutes/views change sizes and strides; view legality.
- :mod:`.narrowing`: what ``isinstance``/``is None`` tests prove in each branch.
- :mod:`.exprs`: expression evaluation and binding in one scope.
- :mod:`.flow`: the one traversal: statements, branches, loops, joins.
- :mod:`.context`: the questions rules ask (the only part of the analysis they see).
"""
