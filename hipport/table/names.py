"""Which identifiers deserve a closer look: a regular expression the parser
can evaluate natively, and the same test in Python."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

# Prefixes of names that look like CUDA API names even when the catalogue does
# not know them; such names become "unmapped" findings instead of passing.
CUDA_LOOKING_PREFIXES = (
    r"cuda[A-Z_]", r"cu[A-Z]", r"CU[a-z]", r"CU_", r"CUDA_", r"CUDART_", r"cublas", r"CUBLAS",
    r"curand", r"CURAND", r"cufft", r"CUFFT", r"cusparse", r"CUSPARSE", r"cusolver", r"CUSOLVER",
    r"cudnn", r"CUDNN", r"nccl[A-Z]", r"NCCL_", r"nvrtc", r"NVRTC", r"nvtx[A-Z]", r"NVTX_",
    r"nvJitLink", r"NVJITLINK_",
    r"__nv_",
    r"__CUDA", r"__cuda",
)
_PREFIX_RE = "|".join(CUDA_LOOKING_PREFIXES)
_CUDA_LOOKING = re.compile(f"(?:{_PREFIX_RE})")
_CUDA_LOOKING_BYTES = re.compile(f"(?:{_PREFIX_RE})".encode())


def looks_like_cuda(name: str) -> bool:
    return _CUDA_LOOKING.match(name) is not None


@dataclass(frozen=True)
class CandidateNames:
    """CUDA-looking names plus the catalogue names that need attention."""

    extra: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def build(cls, names: Iterable[str]) -> CandidateNames:
        return cls(frozenset(n for n in names if not looks_like_cuda(n)))

    def matches(self, name: str) -> bool:
        return name in self.extra or looks_like_cuda(name)

    @functools.cached_property
    def _extra_bytes(self) -> frozenset[bytes]:
        return frozenset(n.encode() for n in self.extra)

    def matches_bytes(self, name: bytes) -> bool:
        return name in self._extra_bytes or _CUDA_LOOKING_BYTES.match(name) is not None

    @property
    def byte_tests(self) -> tuple[frozenset[bytes], Callable[[bytes], object]]:
        """``matches_bytes`` in two parts, for loops that inline it: the exact
        names, and a match function that returns None for a non-candidate."""
        return self._extra_bytes, _CUDA_LOOKING_BYTES.match
