"""Which CUDA names the polyfill header emulates on the target, and the
finding a use gets (HP701-HP706 instead of "no HIP equivalent").  The rules
that meet such names (renames, includes, the cooperative-groups hazard) ask
here; where the header is included is the strategy's business."""
from __future__ import annotations

import functools
from typing import Iterable

from hipport.findings import Finding
from hipport.polyfills import DEFAULT_TARGET as NEWEST
from hipport.polyfills import Emulation, Exactness, Status, bundled_polyfills, emulations
from hipport.polyfills.model import ROCM_TOO_OLD, WITHHELD
from hipport.settings import Settings

# What a use of an emulated name is: a reference the header converts.
APPLIED_CODES = frozenset(e.code for e in Exactness)
# Every code a use of a name the header knows may get (withheld: HP705, the
# target too old for the fallback: HP706).
EMULATION_CODES = (*sorted(APPLIED_CODES), WITHHELD, ROCM_TOO_OLD)


def target_text(settings: Settings) -> str:
    version = settings.rocm_version
    return ".".join(str(p) for p in version[:2]) if version is not None else NEWEST


@functools.lru_cache(maxsize=64)
def _emulations(target: str, allowed: tuple[str, ...]) -> dict[str, Emulation]:
    names = bundled_polyfills().by_name
    return {e.name: e for e in emulations(names, target, (Exactness(a) for a in allowed))}


def emulation(name: str, settings: Settings) -> Emulation | None:
    """What the polyfill header does about ``name`` for these settings; None
    when it has no fallback for it, the target has the real API, or the
    polyfills are off (--polyfills none)."""
    if not settings.polyfills:
        return None
    found = _emulations(target_text(settings), settings.polyfills).get(name)
    return None if found is None or found.status is Status.NATIVE else found


def emulated(name: str, settings: Settings, start: int, end: int, library: str | None = None,
             note: str | None = None) -> Finding | None:
    """The finding for a use of ``name`` the header knows (applied, withheld,
    or too new for the target), or None."""
    found = emulation(name, settings)
    if found is None or found.code is None:
        return None
    return Finding(found.code, found.message, start, end, cuda_name=name, library=library,
                   note=note)


# The CUDA 13 overloads the header adds (hipMemPrefetchAsync with a
# cudaMemLocation) serve a file that builds such a location.
LOCATION_PREFIX = "cudaMemLocation"


def served_overloads(names: Iterable[str], settings: Settings) -> set[str]:
    """Among the CUDA names one file uses, those converted as usual whose HIP
    form the header adds CUDA 13's overloads to, when the file also names a
    memory location (else it calls the HIP signatures and needs nothing)."""
    names = set(names)
    if not any(n.startswith(LOCATION_PREFIX) for n in names):
        return set()
    return {n for n in names if needs_header(n, settings)}


def needs_header(name: str, settings: Settings) -> bool:
    """``name`` is converted as usual but the header adds to its HIP form
    (CUDA 13's overloads of a HIP function): a file using it includes the
    header."""
    found = emulation(name, settings)
    return found is not None and found.status is Status.APPLIED
