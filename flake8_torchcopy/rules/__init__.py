"""The rule registry: one module per rule, in code order."""
from __future__ import annotations

import importlib
from typing import Dict, Tuple

from .base import Example, Rule

RULE_MODULES = (
    "trc101_torch_tensor_copy",
    "trc102_new_tensor_copy",
    "trc103_clone_detach",
    "trc104_empty_like_copy",
    "trc105_deepcopy_tensor",
    "trc106_legacy_constructor",
    "trc107_round_trip",
    "trc108_tensor_of_tensors",
    "trc109_tensor_of_ndarrays",
    "trc110_transfer_then_detach",
    "trc111_leaf_lost_to_transfer",
    "trc112_factory_then_transfer",
    "trc201_view_after_permute",
)

ALL_RULES: Tuple[Rule, ...] = tuple(
    importlib.import_module(f"{__name__}.{name}").RULE for name in RULE_MODULES
)
RULES_BY_CODE: Dict[str, Rule] = {r.code: r for r in ALL_RULES}

__all__ = ["ALL_RULES", "RULES_BY_CODE", "RULE_MODULES", "Example", "Rule"]
