"""Static analysis shared by every rule: torch names, tensor-ness, sizes and layouts.

- :mod:`.symbolic`: sizes as monomials of symbols (``B * N``, ``C // heads``).
- :mod:`.values`: what is known about a value (tensor or not, sizes, strides).
- :mod:`.torchapi`: facts about torch's API (which calls return tensors).
- :mod:`.layout`: how permutes/views change sizes and strides; view legality.
- :mod:`.flow`: the one traversal: imports, assignments, narrowing, rule dispatch.
"""
