"""Device code objects a driver-API program loads at run time.

Such a program's build runs `nvcc -fatbin` (`-cubin`, `-ptx`) and the
program loads the file with `cuModuleLoad("kernel.fatbin")`.  hipcc's
counterpart is `--genco`: HIP 5.2 and ROCm 6.4 alike write an offload bundle
(`__CLANG_OFFLOAD_BUNDLE__`) holding one code object for every
`--offload-arch`, which `hipModuleLoad` loads whatever the file is called:
the file keeps its name, so the program's string stays right.  (Clang's own
`--cuda-device-only` is not a way around hipcc: Clang 15 refuses `-o` with
it, "cannot specify -o when generating multiple output files".)  Without
`-o`, hipcc names the file `k.cu-hip-amdgcn-amd-amdhsa.hipfb`, not the
`k.ptx` nvcc wrote."""
from __future__ import annotations

import re

DEVICE_OUTPUTS = frozenset({"-fatbin", "--fatbin", "-cubin", "--cubin", "-ptx", "--ptx"})
GENCO = "--genco"
OUTPUT_OPTIONS = frozenset({"-o", "--output-file"})
# In CMake, find_package(hip) gives the folder of hipcc (HIP 5.2, ROCm 6.4
# and 7.2; hip_HIPCC_EXECUTABLE, set by 5.2's and 6.4's, is not by 7.2's).
CMAKE_HIPCC = "${hip_BIN_INSTALL_DIR}/hipcc"
# How a CMake custom command names nvcc.
CMAKE_NVCC = frozenset({"${CMAKE_CUDA_COMPILER}", "${CUDAToolkit_NVCC_EXECUTABLE}",
                        "${CUDA_NVCC_EXECUTABLE}", "nvcc"})
# Words naming the compiler: a variable among them says nothing about the GPUs.
COMPILER_WORDS = CMAKE_NVCC | {CMAKE_HIPCC, "$(NVCC)", "${NVCC}", "$(HIPCC)", "${HIPCC}"}
_AUTOMATIC = ("$@", "$<", "$^", "$*", "$+")


def may_hold_flags(word: str) -> bool:
    """A word that may expand to more flags (a GPU among them): a variable
    reference other than the compiler's or one of Make's automatic variables."""
    return "$" in word and word not in COMPILER_WORDS and not word.startswith(_AUTOMATIC)


def is_device_output(word: str) -> bool:
    return word in DEVICE_OUTPUTS


def genco_message(flag: str) -> str:
    return (f"{flag} -> {GENCO}: hipcc writes a HIP code object (an offload bundle with one "
            "for each --offload-arch) that hipModuleLoad loads under the same file name")


def has_output(words: list[str]) -> bool:
    return any(w in OUTPUT_OPTIONS or w.startswith("--output-file=") or
               (w.startswith("-o") and len(w) > 2 and not w.startswith("-o-")) for w in words)


def loop_arch(value: str, variable: str | None) -> str | None:
    """``--offload-arch=${arch}`` for an nvcc architecture value built from the
    variable of a loop over the GPU list (``arch=compute_${arch},code=sm_${arch}``,
    ``sm_${arch}``), which keeps one flag per GPU of the list."""
    if variable is None:
        return None
    reference = "${" + variable + "}"
    if reference not in value:
        return None
    # Every architecture in the value is the loop's: `compute_${arch}`, `sm_${arch}`,
    # `lto_${arch}`, with an optional -real / a suffix; no fixed number beside it.
    fixed = re.sub(r"(compute|sm|lto)_" + re.escape(reference) + r"[a-z]?", "", value)
    if re.search(r"(compute|sm|lto)_\d", fixed):
        return None
    return f"--offload-arch={reference}"
