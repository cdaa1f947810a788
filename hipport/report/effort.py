"""The effort model: person-days from what the build reaches, with every
weight visible and configurable under ``[tool.hipport.report.effort]`` (see
docs/report.md and, for where the defaults come from, docs/effort.md).

Blockers (what a code's ``work`` says stops the build or changes results):

    per ledger API left unconverted   per-api[status] + per-occurrence[status] * uses
    per open finding of a blocker code  per-finding[code, else its severity]
    per cause of a build error (--verify)  per-build-error + per-build-error-location * (places - 1)

Review (converted, emulated, or to be looked at):

    per file the conversion changes     per-converted-file
    per file with a review finding      per-finding[code, else its severity]
    per ledger API converted with a caveat  per-api[status] + per-occurrence[status] * uses

The likely figure is the sum (with ``contingency`` on top, 0 by default);
the low and high figures scale blockers and review by their own ``range``
factors, measured on the corpus the defaults were fitted to."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from hipport.codes import CODES, Severity
from hipport.config import ProjectConfig, Values

# Ledger statuses, in the order reports list them.
STATUSES = ("unsupported", "removed", "unmapped", "rocm-too-old", "deprecated", "review",
            "emulated")
SEVERITIES = tuple(s.value for s in Severity)

# Fitted on the hand-ported corpus (docs/effort.md, benchmarks/effort_calibration.py).
DEFAULT_PER_API: Mapping[str, float] = {
    "unsupported": 0.1,  # replace or drop it, once per API
    "removed": 0.1,  # move to the CUDA API that replaced it, then port that
    "unmapped": 0.05,  # find out what it is; often a project or third-party name
    "rocm-too-old": 0.05,  # raise the ROCm target or keep a fallback path
    "deprecated": 0.02,  # works today; plan its replacement
    "review": 0.02,  # check the rename's caveat once
    "emulated": 0.02,  # read the polyfill's semantics once (docs/polyfills.md)
}
DEFAULT_PER_OCCURRENCE: Mapping[str, float] = {
    "unsupported": 0.01, "removed": 0.01, "unmapped": 0.005, "rocm-too-old": 0.005,
    "deprecated": 0.0, "review": 0.0, "emulated": 0.0,
}
DEFAULT_PER_FINDING: Mapping[str, float] = {
    "error": 0.1, "warning": 0.03, "info": 0.01,
    "HP502": 0.25,  # device-side launch: the kernel has to be split
    "HP420": 0.1,  # inline PTX: rewrite with intrinsics
}
DEFAULTS = {
    "per-converted-file": 0.02,  # look at each changed file, build and test it once
    "per-converted-reference": 0.0,  # review is billed per file, not per reference
    "per-build-error": 0.12,  # --verify: one cause of the build's errors
    "per-build-error-location": 0.01,  # ... each further place it is reported
    "contingency": 0.0,
    "high-priority": 1.0,  # a ledger row costing this many days or more is "high"
    "medium-priority": 0.25,
}
DEFAULT_RANGE = {"blocker-low": 0.5, "blocker-high": 2.5, "review-low": 0.5, "review-high": 2.0}
_KEYS = ("per-api", "per-occurrence", "per-finding", "range", *DEFAULTS)


@dataclass(frozen=True)
class EffortModel:
    per_api: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_PER_API))
    per_occurrence: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_PER_OCCURRENCE))
    per_finding: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_PER_FINDING))
    per_converted_file: float = DEFAULTS["per-converted-file"]
    per_converted_reference: float = DEFAULTS["per-converted-reference"]
    per_build_error: float = DEFAULTS["per-build-error"]
    per_build_error_location: float = DEFAULTS["per-build-error-location"]
    contingency: float = DEFAULTS["contingency"]
    high_priority: float = DEFAULTS["high-priority"]
    medium_priority: float = DEFAULTS["medium-priority"]
    # Low and high as a share of the likely days, for blockers and for review.
    range: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_RANGE))
    source: str = "built-in defaults"

    def ledger_days(self, status: str, occurrences: int) -> float:
        return self.per_api[status] + self.per_occurrence[status] * occurrences

    def finding_weight(self, code: str) -> float:
        if code in self.per_finding:
            return self.per_finding[code]
        known = CODES.get(code)
        severity = known.severity.value if known is not None else "warning"
        return self.per_finding.get(severity, 0.0)

    def build_error_days(self, places: int) -> float:
        return self.per_build_error + self.per_build_error_location * max(0, places - 1)

    def bounds(self, days: float, blocker: bool) -> tuple[float, float]:
        kind = "blocker" if blocker else "review"
        return days * self.range[f"{kind}-low"], days * self.range[f"{kind}-high"]

    def priority(self, days: float) -> str:
        if days >= self.high_priority:
            return "high"
        return "medium" if days >= self.medium_priority else "low"

    def assumptions(self) -> list[str]:
        api = ", ".join(f"{s} {self.per_api[s]:g} + {self.per_occurrence[s]:g}/use"
                        for s in STATUSES)
        findings = ", ".join(f"{k} {v:g}" for k, v in sorted(self.per_finding.items()))
        r = self.range
        lines = [
            f"Weights from {self.source}; all figures are person-days, billed only for what "
            "the build reaches.",
            f"Ledger API (once per API + per use): {api}.",
            f"Open finding (by code, else by severity): {findings}; a blocker code is billed "
            "per finding, a review code per file it is in.",
            f"Review and test of each file the conversion changes: {self.per_converted_file:g}"
            + (f"; of each automatic conversion: {self.per_converted_reference:g}"
               if self.per_converted_reference else "") + ".",
            f"With --verify, each cause of a build error: {self.per_build_error:g} + "
            f"{self.per_build_error_location:g} for each further place.",
            f"Range: blockers {r['blocker-low']:g}-{r['blocker-high']:g} x, review "
            f"{r['review-low']:g}-{r['review-high']:g} x the likely days.",
            f"Ledger priority: high from {self.high_priority:g} person-days per row, medium "
            f"from {self.medium_priority:g}.",
        ]
        if self.contingency:
            lines.insert(-1, f"Contingency on top of each figure: {self.contingency:.0%}.")
        return lines


def _weights(values: Values, defaults: Mapping[str, float], allowed: tuple[str, ...],
             what: str) -> dict[str, float]:
    out = dict(defaults)
    for name in values.data:
        if name not in allowed:
            raise values.fail(name, f"unknown {what} (allowed: {', '.join(allowed)})")
        out[name] = values.number(name, 0.0)
    return out


def _range(values: Values) -> dict[str, float]:
    values.check_keys(tuple(DEFAULT_RANGE))
    found = {k: values.number(k, v, maximum=100.0) for k, v in DEFAULT_RANGE.items()}
    for kind in ("blocker", "review"):
        low, high = found[f"{kind}-low"], found[f"{kind}-high"]
        if low > 1.0:
            raise values.fail(f"{kind}-low", f"must be at most 1 (the likely figure), got {low:g}")
        if high < 1.0:
            raise values.fail(f"{kind}-high", f"must be at least 1 (the likely figure), got "
                              f"{high:g}")
    return found


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
        per_converted_file=values.number("per-converted-file", DEFAULTS["per-converted-file"]),
        per_converted_reference=values.number("per-converted-reference",
                                              DEFAULTS["per-converted-reference"]),
        per_build_error=values.number("per-build-error", DEFAULTS["per-build-error"]),
        per_build_error_location=values.number("per-build-error-location",
                                               DEFAULTS["per-build-error-location"]),
        contingency=values.number("contingency", DEFAULTS["contingency"], maximum=10.0),
        high_priority=values.number("high-priority", DEFAULTS["high-priority"]),
        medium_priority=values.number("medium-priority", DEFAULTS["medium-priority"]),
        range=_range(values.table("range")),
        source=config.source if values.data else "built-in defaults",
    )
    if model.medium_priority > model.high_priority:
        raise values.fail("medium-priority", "must not exceed high-priority "
                          f"({model.medium_priority:g} > {model.high_priority:g})")
    return model
