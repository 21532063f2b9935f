"""The rule registry: one module per rule, in code order."""
from __future__ import annotations

from typing import Dict, Tuple

from .base import Example, Rule

ALL_RULES: Tuple[Rule, ...] = ()
RULES_BY_CODE: Dict[str, Rule] = {}


def _load() -> None:
    global ALL_RULES, RULES_BY_CODE
    from . import (
        trc101_torch_tensor_copy,
        trc102_new_tensor_copy,
        trc103_clone_detach,
        trc104_empty_like_copy,
        trc105_deepcopy_tensor,
        trc106_legacy_constructor,
        trc107_round_trip,
        trc108_tensor_of_tensors,
        trc201_view_after_permute,
    )

    modules = (
        trc101_torch_tensor_copy,
        trc102_new_tensor_copy,
        trc103_clone_detach,
        trc104_empty_like_copy,
        trc105_deepcopy_tensor,
        trc106_legacy_constructor,
        trc107_round_trip,
        trc108_tensor_of_tensors,
        trc201_view_after_permute,
    )
    ALL_RULES = tuple(m.RULE for m in modules)
    RULES_BY_CODE = {r.code: r for r in ALL_RULES}


_load()

__all__ = ["ALL_RULES", "RULES_BY_CODE", "Example", "Rule"]
