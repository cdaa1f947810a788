"""Settings that change what a conversion produces (part of every cache key)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from hipport.table.versions import DEFAULT_TARGET

LAUNCH_SYNTAXES = ("keep", "hip")
DEFAULT_CUDA_VERSION = (12, 0)
# MI200 (CDNA2) and MI300 (CDNA3): the data-centre GPUs CUDA code is most
# often ported to.  Change with `hipport convert --offload-arch gfx1100;...`.
DEFAULT_OFFLOAD_ARCH: tuple[str, ...] = ("gfx90a", "gfx942")
# --polyfills: which fallbacks of the polyfill header are applied, by exactness.
SAFE_POLYFILLS = ("exact", "hint-dropped")
POLYFILL_CHOICES: dict[str, tuple[str, ...]] = {
    "safe": SAFE_POLYFILLS,  # the same results as CUDA's
    "all": (*SAFE_POLYFILLS, "slower", "approximate"),
    "none": (),
}


@dataclass(frozen=True)
class Settings:
    launch_syntax: str = "keep"  # keep `<<<...>>>` (valid HIP) or emit hipLaunchKernelGGL
    unsafe_fixes: bool = False
    # Target ROCm (docs/rocm-versions.md); None: no version checks at all.
    rocm_version: tuple[int, ...] | None = DEFAULT_TARGET
    stability_check: bool = True  # convert the output again; a change is an internal error
    # The CUDA release the code is taken to be written for: CUDA version tests
    # in #if conditions are resolved for it (docs/preprocessor.md).
    assume_cuda_version: tuple[int, int] = DEFAULT_CUDA_VERSION
    # The AMD GPU targets written into converted build files.
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH
    # --offload-arch was given: the targets are the user's, never adapted.
    offload_arch_given: bool = False
    # Default targets the tree's code cannot be built for, left out of
    # offload_arch (hipport.gpus.targets_for: MI300 where it reads textures).
    offload_arch_left_out: tuple[str, ...] = ()
    # How exact a fallback of the polyfill header must be to be applied
    # (docs/polyfills.md): its exactness is one of these.
    polyfills: tuple[str, ...] = SAFE_POLYFILLS
    # What the tree's build files say (hipport.buildfiles.build_facts): it
    # compiles relocatable device code (CUDA_SEPARABLE_COMPILATION ON,
    # -rdc=true); it makes device code files with nvcc -ptx/-cubin/-fatbin.
    relocatable_device_code: bool = False
    code_objects_built: bool = False
    # --roc: the BLAS and RAND libraries convert to rocBLAS and rocRAND
    # themselves, not to the hip* wrappers (hipport.table.roc), sources and
    # build files alike.
    roc: bool = False

    def __post_init__(self) -> None:
        if not self.offload_arch or not all(
                a and all(c.isalnum() or c in ":+-_" for c in a) for a in self.offload_arch):
            raise ValueError(f"invalid offload architecture list {self.offload_arch!r}; "
                             "expected names such as gfx90a")


def parse_cuda_version(text: str) -> tuple[int, int]:
    """``--assume-cuda-version X.Y``: a ValueError that says why when it is not
    a CUDA release (X.Y, or X for X.0)."""
    value = text.strip()
    m = re.fullmatch(r"([0-9]{1,2})(?:\.([0-9]))?", value)  # ASCII: \d also takes "١٢"
    if m is None:
        hint = ""
        loose = re.fullmatch(r"(?:v|cuda[-_ ]?)?([0-9]{1,2})(?:\.([0-9]))?(?:\.[0-9]+)*", value,
                             re.I)
        if loose is not None:
            hint = f"; did you mean {loose.group(1)}.{loose.group(2) or 0}?"
        raise ValueError(f"expected a CUDA release such as {DEFAULT_CUDA_VERSION[0]}."
                         f"{DEFAULT_CUDA_VERSION[1]}, got {text!r}{hint}")
    version = (int(m.group(1)), int(m.group(2) or 0))
    if version < (1, 0):
        raise ValueError(f"CUDA {text} does not exist (the first release is 1.0)")
    return version
