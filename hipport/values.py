"""Values the user types, parsed into typed ones (settings, targets, time
limits), for every command and for library callers such as
`hipport.report.run`; a value that is not one is a usage error."""
from __future__ import annotations

import math
import re
from typing import Callable, Sequence, TypeVar

from hipport.buildfiles.project import Configuration
from hipport.errors import UsageError
from hipport.settings import (
    DEFAULT_CUDA_VERSION,
    DEFAULT_OFFLOAD_ARCH,
    POLYFILL_CHOICES,
    Settings,
    parse_cuda_version,
)
from hipport.suggest import did_you_mean
from hipport.table.versions import DEFAULT_TARGET, parse_target

__all__ = ["build_settings", "offload_targets", "time_limit"]

MAX_TIME_LIMIT = 86_400.0  # seconds: a day


def build_settings(launch_syntax: str = "keep", unsafe_fixes: bool = False,
                   rocm_version: str | None = None, fast: bool = False,
                   assume_cuda_version: str | None = None,
                   offload_arch: str | None = None, polyfills: str = "safe",
                   roc: bool = False) -> Settings:
    return Settings(
        launch_syntax=launch_syntax,
        unsafe_fixes=unsafe_fixes,
        rocm_version=target_release(rocm_version),
        stability_check=not fast,
        assume_cuda_version=assumed_cuda(assume_cuda_version),
        offload_arch=offload_targets(offload_arch),
        offload_arch_given=offload_arch is not None,
        polyfills=polyfill_choice(polyfills),
        roc=roc,
    )


def polyfill_choice(value: str) -> tuple[str, ...]:
    """``--polyfills safe|all|none``: the exactness of the fallbacks applied."""
    if value not in POLYFILL_CHOICES:
        raise UsageError(f"--polyfills: {value!r} is not one of "
                         f"{', '.join(POLYFILL_CHOICES)}{did_you_mean(value, POLYFILL_CHOICES)}")
    return POLYFILL_CHOICES[value]


def assumed_cuda(value: str | None) -> tuple[int, int]:
    """``--assume-cuda-version``: 12.0 when not given."""
    return _parsed("--assume-cuda-version", value, DEFAULT_CUDA_VERSION, parse_cuda_version)


def target_release(value: str | None) -> tuple[int, ...]:
    """``--rocm-version``: the newest verified release when not given."""
    return _parsed("--rocm-version", value, DEFAULT_TARGET, parse_target)


_T = TypeVar("_T")


def _parsed(option: str, value: str | None, default: _T, parse: Callable[[str], _T]) -> _T:
    if value is None:
        return default
    try:
        return parse(value)
    except ValueError as exc:
        raise UsageError(f"{option}: {exc}") from None


def offload_targets(value: str | None) -> tuple[str, ...]:
    """``--offload-arch "gfx90a;gfx942"`` (or commas) -> a validated tuple (the
    default if None)."""
    if value is None:
        return DEFAULT_OFFLOAD_ARCH
    targets = tuple(a.strip() for a in value.replace(",", ";").split(";") if a.strip())
    try:
        Settings(offload_arch=targets)
    except ValueError as exc:
        raise UsageError(f"--offload-arch: {exc}") from None
    return targets



def time_limit(option: str, value: float) -> float:
    """``--timeout SECONDS``: a finite positive number, a day at most (``nan``,
    ``inf`` and ``1e308`` are no time limits a process can be given)."""
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"{option} {value:g}: must be a positive number of seconds")
    if value > MAX_TIME_LIMIT:
        raise UsageError(f"{option} {value:g}: at most {MAX_TIME_LIMIT:g} seconds (a day)")
    return value


_CMAKE_NAME = re.compile(r"^[A-Za-z0-9_.+-]+(?::[A-Za-z]+)?$")  # NAME, NAME:BOOL
_MAKE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def configuration(defines: Sequence[str], make_variables: Sequence[str]) -> Configuration:
    """``-D NAME=VALUE`` (``NAME:TYPE=VALUE``) and ``--make-var NAME=VALUE``,
    each checked, in the order given (a later one wins, as with cmake and
    make)."""
    return Configuration(_assignments("-D", defines, _CMAKE_NAME, "cmake -D"),
                         _assignments("--make-var", make_variables, _MAKE_NAME, "make"))


def _assignments(option: str, given: Sequence[str], name: re.Pattern[str], like: str
                 ) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    for item in given:
        key, equals, value = item.partition("=")
        if not equals or not name.match(key):
            raise UsageError(f"{option} {item}: give NAME=VALUE, as {like} takes it "
                             f"(e.g. {option} MODEL=hip)")
        pairs.append((key, value))
    return tuple(pairs)
