"""The verifier's result: :class:`Report`, its JSON and its human summary."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

STATUSES = ("equivalent", "improved", "mismatch", "unverified")


@dataclass
class Report:
    before: str
    after: str
    status: str = "unverified"
    cases: int = 0  # cases compared: at least one side ran
    devices: List[str] = field(default_factory=list)
    mismatches: List[Dict[str, str]] = field(default_factory=list)
    speedup: Dict[str, Dict[str, float]] = field(default_factory=dict)
    timings: Dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    inputs: Dict[str, str] = field(default_factory=dict)
    tried: int = 0  # cases generated, over all devices
    skipped: Dict[str, int] = field(default_factory=dict)  # why a case was not compared -> count
    both_raised: Dict[str, int] = field(default_factory=dict)  # exception both sides raised -> cases
    # ("A / B" when the types differ and the rule accepts the pair: see ``notes``)
    notes: List[str] = field(default_factory=list)  # what was accepted, and why (not a mismatch)
    improvements: List[Dict[str, str]] = field(default_factory=list)
    mismatch_count: int = 0
    mismatch_properties: Dict[str, int] = field(default_factory=dict)  # property -> cases
    seconds: float = 0.0
    parts: List["Report"] = field(default_factory=list)  # verify_fix with several changes

    @property
    def ok(self) -> bool:
        return self.status in ("equivalent", "improved")

    def to_dict(self) -> Dict[str, Any]:
        d = asdict(self)
        if not self.parts:
            d.pop("parts")
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, default=str)

    def summary(self) -> str:
        lines = [f"{self.status}: {self.before}  ->  {self.after}"]
        skipped = ", ".join(f"{n} {why}" for why, n in self.skipped.items() if n)
        lines.append(f"  devices {', '.join(self.devices) or '-'}; {self.cases} cases compared of "
                     f"{self.tried} tried" + (f"; not compared: {skipped}" if skipped else ""))
        if self.both_raised:
            rejected = ", ".join(f"{exc} in {n}" for exc, n in sorted(self.both_raised.items()))
            lines.append(f"  rejected by both versions: {rejected}")
        for note in self.notes:
            lines.append(f"  note: {note}")
        if self.reason:
            lines.append(f"  reason: {self.reason}")
        if self.mismatches:
            m = self.mismatches[0]
            lines.append(f"  {self.mismatch_count} mismatching cases; properties {self.mismatch_properties}")
            lines.append(f"  first mismatch: {m['case']}")
            lines.append(f"    property {m['property']}: before {m['before']}")
            lines.append(f"    {' ' * (len(m['property']) + 9)}after  {m['after']}")
            if m.get("reason"):
                lines.append(f"    why: {m['reason']}")
        elif self.improvements:
            m = self.improvements[0]
            label = "improved" if self.status == "improved" else "only the rewrite ran"
            lines.append(f"  {label}, e.g. {m['case']}: {m['property']}: before {m['before']} / after {m['after']}")
        return "\n".join(lines)
