"""Settings that change what a conversion produces (part of every cache key)."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.table.versions import DEFAULT_TARGET

LAUNCH_SYNTAXES = ("keep", "hip")
STRATEGIES = ("rewrite", "compat")


@dataclass(frozen=True)
class Settings:
    launch_syntax: str = "keep"  # keep `<<<...>>>` (valid HIP) or emit hipLaunchKernelGGL
    unsafe_fixes: bool = False
    # Target ROCm (docs/rocm-versions.md); None: no version checks at all.
    rocm_version: tuple[int, ...] | None = DEFAULT_TARGET
    stability_check: bool = True  # convert the output again; a change is an internal error
    # "rewrite": CUDA names become HIP names; "compat": the code stays CUDA and
    # a generated header maps it for the AMD build (hipport.compat, issue 17).
    strategy: str = "rewrite"
    # compat: the header's path (absolute once planned; "" before) and the
    # macro that selects the AMD build ("": __HIP_PLATFORM_AMD__ / __HIP__).
    compat_header: str = ""
    compat_macro: str = ""
