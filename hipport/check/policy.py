"""Which findings are violations: the policy, `fail-on` and `ignore`.

`no-unmapped` (the default) fails on CUDA APIs hipport cannot convert (the
ledger codes) and on hazards of severity error: the tree may still be CUDA,
but nothing may be added that has no way to HIP.  `hip-only` fails on every
CUDA reference, converted or not, because the tree is meant to be HIP already.
`compat` fails on a CUDA name the code uses that the compat header
(`convert --strategy compat`) does not map yet (HP311).

`fail-on` replaces the policy's selection with code prefixes (`"HP9"` selects
HP900-HP999); `ignore` removes prefixes from whatever was selected."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from pathlib import Path

from hipport.codes import CODES, Severity
from hipport.compat import HEADER_STALE
from hipport.config import ProjectConfig, Values
from hipport.diagnostics.model import Category, FileEffect
from hipport.errors import UsageError
from hipport.suggest import did_you_mean


class Policy(enum.Enum):
    NO_UNMAPPED = "no-unmapped"
    HIP_ONLY = "hip-only"
    COMPAT = "compat"  # single source: every CUDA name used is in the compat header


POLICIES = tuple(p.value for p in Policy)
CHECK_KEYS = ("policy", "fail-on", "ignore", "baseline", "report-unused-suppressions")
_PREFIX = re.compile(r"HP\d{0,3}")


def default_selects(policy: Policy, code: str) -> bool:
    known = CODES.get(code)
    if known is None:
        return False
    if known.category is Category.HAZARD and known.severity is Severity.ERROR:
        return True
    if policy is Policy.COMPAT:
        return code == HEADER_STALE or known.effect is FileEffect.SKIPPED
    if policy is Policy.HIP_ONLY:
        # A file hipport could not read may hold CUDA: a HIP-only tree cannot pass it.
        return known.reference or known.effect is FileEffect.SKIPPED
    return known.unconverted


@dataclass(frozen=True)
class FailurePolicy:
    """Decides, code by code, whether a finding fails the check."""

    policy: Policy = Policy.NO_UNMAPPED
    fail_on: tuple[str, ...] | None = None  # None: the policy's default
    ignore: tuple[str, ...] = ()

    def fails(self, code: str) -> bool:
        if any(code.startswith(p) for p in self.ignore):
            return False
        if self.fail_on is not None:
            return any(code.startswith(p) for p in self.fail_on)
        return default_selects(self.policy, code)

    def describe(self) -> str:
        parts = [f"policy {self.policy.value}"]
        if self.fail_on is not None:
            parts.append("fail-on " + ",".join(self.fail_on))
        if self.ignore:
            parts.append("ignore " + ",".join(self.ignore))
        return "; ".join(parts)


@dataclass(frozen=True)
class CheckConfig:
    """The `[tool.hipport.check]` table, validated."""

    failing: FailurePolicy
    baseline: Path | None  # resolved against the configuration file's folder
    report_unused_suppressions: bool
    root: Path | None  # the configuration file's folder, if there is one


def parse_prefixes(values: tuple[str, ...] | list[str], where: str) -> tuple[str, ...]:
    """``["HP9", "hp502"]`` or ``["HP9,HP502"]`` -> ("HP9", "HP502"); bad ones are errors
    naming ``where`` (the option or configuration key)."""
    out: list[str] = []
    for value in values:
        for item in value.replace(",", " ").split():
            prefix = item.strip().upper()
            if not _PREFIX.fullmatch(prefix):
                raise UsageError(f"{where}: {item!r} is not a code or code prefix"
                                 f"{did_you_mean(prefix, CODES, 1)} (examples: HP901, HP9, HP50)")
            if len(prefix) == 5 and prefix not in CODES:
                raise UsageError(f"{where}: unknown code {item!r}{did_you_mean(prefix, CODES, 1)} "
                                 "(`hipport explain` lists them)")
            out.append(prefix)
    return tuple(out)


def load_check_config(config: ProjectConfig) -> CheckConfig:
    values = config.section("check")
    values.check_keys(CHECK_KEYS)
    policy = Policy(values.string("policy", Policy.NO_UNMAPPED.value, choices=POLICIES))
    fail_on = _prefixes(values, "fail-on")
    ignore = _prefixes(values, "ignore") or ()
    root = config.path.parent if config.path is not None else None
    baseline_value = values.string("baseline")
    baseline = None
    if baseline_value is not None:
        baseline = Path(baseline_value)
        if root is not None and not baseline.is_absolute():
            baseline = root / baseline
    return CheckConfig(FailurePolicy(policy, fail_on, ignore), baseline,
                       values.flag("report-unused-suppressions"), root)


def _prefixes(values: Values, name: str) -> tuple[str, ...] | None:
    raw = values.strings(name)
    if raw is None:
        return None
    try:
        return parse_prefixes(raw, name)
    except UsageError as exc:
        # Re-raised through Values so the message names the file and dotted key.
        raise values.fail(name, str(exc).split(": ", 1)[1]) from None
