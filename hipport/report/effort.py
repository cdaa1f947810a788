"""The effort model: person-days from counts, with every weight visible and
configurable under `[tool.hipport.report.effort]` (see docs/report.md).

    days = sum over ledger APIs of   per-api[status] + per-occurrence[status] * uses
         + sum over open findings of per-finding[code, else its severity]
         + per-converted-reference * references converted automatically
         + per-converted-file      * files the conversion changes
    total = days * (1 + contingency)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from hipport.codes import CODES, Severity
from hipport.config import ProjectConfig, Values

# Ledger statuses, in the order reports list them.
STATUSES = ("unsupported", "removed", "unmapped", "rocm-too-old", "deprecated", "review",
            "emulated")
SEVERITIES = tuple(s.value for s in Severity)

DEFAULT_PER_API: Mapping[str, float] = {
    "unsupported": 1.0,  # design and write a replacement, once per API
    "removed": 1.0,  # move to the CUDA API that replaced it, then port that
    "unmapped": 0.5,  # find out what it is; often a project or third-party name
    "rocm-too-old": 0.25,  # raise the ROCm target or keep a fallback path
    "deprecated": 0.25,  # works today; plan its replacement
    "review": 0.1,  # check the rename's caveat once
    "emulated": 0.1,  # read the polyfill's semantics once (docs/polyfills.md)
}
DEFAULT_PER_OCCURRENCE: Mapping[str, float] = {
    "unsupported": 0.1, "removed": 0.1, "unmapped": 0.05, "rocm-too-old": 0.02,
    "deprecated": 0.02, "review": 0.02, "emulated": 0.01,
}
DEFAULT_PER_FINDING: Mapping[str, float] = {
    "error": 0.5, "warning": 0.1, "info": 0.02,
    "HP502": 1.0,  # device-side launch: the kernel has to be split
    "HP420": 0.5,  # inline PTX: rewrite with intrinsics
}
DEFAULTS = {
    "per-converted-reference": 0.002,  # about a minute of review per automatic edit
    "per-converted-file": 0.05,  # build and test each changed file once
    "contingency": 0.2,
    "high-priority": 1.0,  # a ledger row costing this many days or more is "high"
    "medium-priority": 0.25,
}
_KEYS = ("per-api", "per-occurrence", "per-finding", *DEFAULTS)


@dataclass(frozen=True)
class EffortModel:
    per_api: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_PER_API))
    per_occurrence: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_PER_OCCURRENCE))
    per_finding: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_PER_FINDING))
    per_converted_reference: float = DEFAULTS["per-converted-reference"]
    per_converted_file: float = DEFAULTS["per-converted-file"]
    contingency: float = DEFAULTS["contingency"]
    high_priority: float = DEFAULTS["high-priority"]
    medium_priority: float = DEFAULTS["medium-priority"]
    source: str = "built-in defaults"

    def ledger_days(self, status: str, occurrences: int) -> float:
        return self.per_api[status] + self.per_occurrence[status] * occurrences

    def finding_weight(self, code: str) -> float:
        if code in self.per_finding:
            return self.per_finding[code]
        known = CODES.get(code)
        severity = known.severity.value if known is not None else "warning"
        return self.per_finding.get(severity, 0.0)

    def priority(self, days: float) -> str:
        if days >= self.high_priority:
            return "high"
        return "medium" if days >= self.medium_priority else "low"

    def assumptions(self) -> list[str]:
        api = ", ".join(f"{s} {self.per_api[s]:g} + {self.per_occurrence[s]:g}/use"
                        for s in STATUSES)
        findings = ", ".join(f"{k} {v:g}" for k, v in sorted(self.per_finding.items()))
        return [
            f"Weights from {self.source}; all figures are person-days.",
            f"Ledger API (once per API + per use): {api}.",
            f"Open finding (by code, else by severity): {findings}.",
            f"Review of each automatic conversion: {self.per_converted_reference:g}; "
            f"build and test of each changed file: {self.per_converted_file:g}.",
            f"Contingency on top of the sum: {self.contingency:.0%}.",
            f"Ledger priority: high from {self.high_priority:g} person-days per row, medium "
            f"from {self.medium_priority:g}.",
        ]


def _weights(values: Values, defaults: Mapping[str, float], allowed: tuple[str, ...],
             what: str) -> dict[str, float]:
    out = dict(defaults)
    for name in values.data:
        if name not in allowed:
            raise values.fail(name, f"unknown {what} (allowed: {', '.join(allowed)})")
        out[name] = values.number(name, 0.0)
    return out


def load_effort_model(config: ProjectConfig) -> EffortModel:
    """The model with the configuration's weights over the defaults."""
    report = config.section("report")
    report.check_keys(("effort",))
    values = report.table("effort")
    values.check_keys(_KEYS)
    finding = values.table("per-finding")
    for name in finding.data:
        if name not in SEVERITIES and name not in CODES:
            raise finding.fail(name, "expected a diagnostic code (like HP401) or a severity "
                               f"({', '.join(SEVERITIES)})")
    model = EffortModel(
        per_api=_weights(values.table("per-api"), DEFAULT_PER_API, STATUSES, "ledger status"),
        per_occurrence=_weights(values.table("per-occurrence"), DEFAULT_PER_OCCURRENCE,
                                STATUSES, "ledger status"),
        per_finding=_weights(finding, DEFAULT_PER_FINDING, (*SEVERITIES, *CODES), "key"),
        per_converted_reference=values.number("per-converted-reference",
                                              DEFAULTS["per-converted-reference"]),
        per_converted_file=values.number("per-converted-file", DEFAULTS["per-converted-file"]),
        contingency=values.number("contingency", DEFAULTS["contingency"], maximum=10.0),
        high_priority=values.number("high-priority", DEFAULTS["high-priority"]),
        medium_priority=values.number("medium-priority", DEFAULTS["medium-priority"]),
        source=config.source if values.data else "built-in defaults",
    )
    if model.medium_priority > model.high_priority:
        raise values.fail("medium-priority", "must not exceed high-priority "
                          f"({model.medium_priority:g} > {model.high_priority:g})")
    return model
