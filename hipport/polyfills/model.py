"""The polyfill fallbacks as values: what a fallback emulates, how exactly,
from which ROCm release the real API makes it unneeded, and its code."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from hipport.table.schema import parse_version

SCHEMA_ID = "hipport-polyfills/1"
# The C++ contexts a fallback's code runs in (informational, and for docs).
CONTEXTS = ("device", "host", "host-device")


class Exactness(enum.Enum):
    """How close a fallback comes to CUDA's API, best first."""

    EXACT = "exact"  # every result and observable side effect is CUDA's
    HINT_DROPPED = "hint-dropped"  # the same results; a performance hint is ignored
    SLOWER = "slower"  # the same results, markedly slower than CUDA's instruction
    APPROXIMATE = "approximate"  # results can differ from CUDA's (the semantics say how)

    @property
    def rank(self) -> int:
        return list(Exactness).index(self)

    @property
    def code(self) -> str:
        """The code of the finding that says a name is emulated this way."""
        return _CODES[self]


_CODES = {Exactness.EXACT: "HP701", Exactness.HINT_DROPPED: "HP702",
          Exactness.SLOWER: "HP703", Exactness.APPROXIMATE: "HP704"}
# Applied unless the user allows more (the others stay in the ledger: HP705).
DEFAULT_EXACTNESS = frozenset({Exactness.EXACT, Exactness.HINT_DROPPED})
WITHHELD = "HP705"
ROCM_TOO_OLD = "HP706"


@dataclass(frozen=True)
class Name:
    """A CUDA name a fallback provides.

    ``overloads``: the name has a HIP counterpart (the rewrite renames it to
    that) but not for every CUDA signature; the fallback adds the missing
    signatures to the HIP function (CUDA 13's ``cudaMemPrefetchAsync`` with a
    ``cudaMemLocation``), so the code compiles under either spelling."""

    cuda: str
    kind: str
    overloads: str | None = None


@dataclass(frozen=True)
class Rocm:
    """The fallback against ROCm releases (from the HIP 5.2, 5.7 and 6.4 headers).

    ``real``: the first release whose headers declare the real API (None: none
    checked does); ``when``: a preprocessor condition under which they declare
    it (``defined(HIP_ENABLE_WARP_SYNC_BUILTINS)``), so the fallback is kept
    for targets from ``real`` on and steps aside only where the condition
    holds; ``needs``: the oldest release the fallback itself builds on.

    ``beside``: where the real API is declared the fallback does not step
    aside but stays beside it, declaring only the overloads ROCm's own lack
    (CUDA's 32-bit warp masks, which ROCm 7's 64-bit-mask templates refuse);
    its code tests ``native_macro`` (1 where the real API is declared), which
    the header defines from ``real`` and ``when``."""

    real: str | None = None
    when: str | None = None
    needs: str | None = None
    beside: bool = False

    def native_in(self, target: str) -> bool:
        """The target release has the real API unconditionally (and the
        fallback does not stay beside it)."""
        return self.real is not None and self.when is None and not self.beside and \
            parse_version(target) >= parse_version(self.real)

    def buildable_in(self, target: str) -> bool:
        return self.needs is None or parse_version(target) >= parse_version(self.needs)

    def declared(self) -> str | None:
        """The preprocessor test that holds where ROCm declares the real API."""
        if self.real is None:
            return None
        since = f"HIP_VERSION >= {hip_version(self.real)}"
        return since if self.when is None else f"{since} && ({self.when})"

    def guard(self) -> str | None:
        """The preprocessor test under which the fallback is compiled."""
        tests = []
        if self.needs is not None:
            tests.append(f"HIP_VERSION >= {hip_version(self.needs)}")
        if self.real is not None and not self.beside:
            tests.append(f"HIP_VERSION < {hip_version(self.real)}" if self.when is None
                         else f"!({self.declared()})")
        return " && ".join(tests) or None


def native_macro(fallback_id: str) -> str:
    """The macro a ``beside`` fallback's code tests: 1 where ROCm declares
    the real API, else 0 (``HIPPORT_ROCM_HAS_REDUCE_SYNC``)."""
    return "HIPPORT_ROCM_HAS_" + fallback_id.upper().replace("-", "_")


def hip_version(release: str) -> int:
    """``"6.2"`` -> 60200000, as HIP_VERSION counts (major 10^7, minor 10^5)."""
    parts = parse_version(release) + (0, 0)
    return parts[0] * 10_000_000 + parts[1] * 100_000


@dataclass(frozen=True)
class Fallback:
    id: str
    family: str
    names: tuple[Name, ...]
    exactness: Exactness
    semantics: str  # what the emulation does, against CUDA's API: one or two sentences
    cost: str
    rocm: Rocm
    context: str  # one of CONTEXTS
    finding: str  # what the finding on a use says the emulation does
    code: str  # C++ text
    requires: tuple[str, ...] = ()  # ids of fallbacks whose code this one uses
    includes: tuple[str, ...] = ()  # HIP headers the code needs
    origin: str = ""  # "file:line"

    @property
    def cuda_names(self) -> tuple[str, ...]:
        return tuple(n.cuda for n in self.names)


@dataclass(frozen=True)
class Family:
    """One file of mappings/polyfills/: fallbacks of one area."""

    id: str
    title: str
    path: str
    fallbacks: tuple[Fallback, ...]
