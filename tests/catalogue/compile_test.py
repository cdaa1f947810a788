"""(e) the mapped HIP functions, types and enumerators of each library compile
with each HIP compiler (-fsyntax-only), as hipport emits them for that
compiler's release (``--rocm-version`` = the oracle's): each name is brought
in with a using-declaration (which works for overloaded functions too), after
the HIP headers the catalogue maps CUDA's headers to for that release.  A
name the release lacks must be one the catalogue withholds from it."""
from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from hipport.table import Mapping, bundled_table
from hipport.table.versions import Availability, for_target
from tests.catalogue.catalogue import LIBRARY_TO_HIP
from tests.toolchain import HipOracle
from tools.catalogue.hip_headers import scan_library

pytestmark = pytest.mark.slow

HIP_LIBS = ("hip", "hiprtc", "hipblas", "hipblaslt", "hiprand", "hipfft", "hipsparse",
            "hipsolver", "rccl", "miopen")
# HIP_LIB -> headers no CUDA header maps to that its names still need.
EXTRA_INCLUDES = {"hip": ("hip/hip_bfloat16.h",)}
# Headers that cannot share a unit with the others: ROCm 7.2's hip_fp4.h and
# hip_fp6.h both define internal::half_to_f16 & co. (a ROCm bug), so the names
# a header spells are compiled in a unit of their own (runtime + that header).
ALONE = ("hip/hip_fp6.h",)
# HIP_LIB -> macros the notes of its (unsafe) mappings tell the user to define.
DEFINES = {"miopen": ("MIOPEN_BETA_API",)}
# 0: every name; the default also compiles everything (a few seconds per library).
SAMPLE = int(os.environ.get("HIPPORT_CATALOGUE_SAMPLE", "0")) or 10**9
KINDS = ("function", "type", "enum")
_BUILTIN_TYPES = frozenset({"int", "unsigned", "long", "short", "char", "float", "double",
                            "void", "bool", "size_t"})


def _stage(tmp: Path, roots: tuple[Path, ...]) -> Path:
    """Library folders from the extra include dirs, without their hip/ (which
    must match the installed compiler)."""
    stage = tmp / "inc"
    stage.mkdir()
    for root in roots:
        for sub in root.iterdir():
            if sub.name not in ("hip", "hsa", "amd_comgr") and not (stage / sub.name).exists():
                (stage / sub.name).symlink_to(sub)
    return stage


def _sample(names: list[str]) -> list[str]:
    names = sorted(set(names))
    if len(names) <= SAMPLE:
        return names
    step = len(names) / SAMPLE
    return [names[int(i * step)] for i in range(SAMPLE)]


@lru_cache(maxsize=None)
def emitted(hip_lib: str, release: tuple[int, int]) -> tuple[tuple[Mapping, ...],
                                                              tuple[Mapping, ...]]:
    """(what hipport emits for ``release``, what it withholds), for the
    catalogue entries whose HIP counterpart is in ``hip_lib``."""
    emit: list[Mapping] = []
    withheld: list[Mapping] = []
    for entry in bundled_table():
        if LIBRARY_TO_HIP[entry.library] != hip_lib or not entry.status.converts:
            continue
        resolved, availability = for_target(entry, release)
        (emit if availability is Availability.AVAILABLE else withheld).append(resolved)
    return tuple(emit), tuple(withheld)


def includes(hip_lib: str, release: tuple[int, int]) -> list[str]:
    """The HIP headers hipport maps CUDA's to, for ``release``, after the
    runtime's (first, as in a converted file: nvcc includes cuda_runtime.h
    first, and ROCm 6.4's hip/channel_descriptor.h does not compile alone)."""
    emit, _ = emitted(hip_lib, release)
    found = sorted({m.hip for m in emit if m.kind == "header" and m.hip})
    extra = [h for h in EXTRA_INCLUDES.get(hip_lib, ()) if h not in found]
    return ["hip/hip_runtime.h", *(h for h in found + extra if h != "hip/hip_runtime.h")]


@pytest.mark.parametrize("hip_lib", HIP_LIBS)
def test_mapped_names_compile(hip_lib: str, tmp_path: Path, hip_oracle: HipOracle) -> None:
    release = hip_oracle.hip_version
    # The oracle's own include dir, then (HIP 5.2) the headers unpacked next to it.
    dirs = [hip_oracle.include_dirs[0]]
    if hip_oracle.include_dirs[1:]:
        dirs.append(_stage(tmp_path, hip_oracle.include_dirs[1:]))
    headers = scan_library(hip_lib, dirs)
    emit, _ = emitted(hip_lib, release)
    names = [m.hip for m in emit if m.kind in KINDS and m.hip and "::" not in m.hip
             and m.rule is None]
    if not headers.present:
        # The release has no such library: the catalogue must not emit its names.
        assert not names, f"ROCm {release} has no {hip_lib}, yet {len(names)} names map to " \
            f"it, e.g. {names[:5]}"
        return
    macros = _macros(headers)
    names = [n for n in names if n not in macros and n not in _BUILTIN_TYPES]
    assert names, f"nothing to compile for {hip_lib}"
    units = _units(includes(hip_lib, release), names, dirs[0])
    for i, (heads, unit_names) in enumerate(units):
        src = [f"#include <{h}>" for h in heads]
        src += ["namespace hipport_check {"] + [f"using ::{n};" for n in _sample(unit_names)]
        src += ["}"]
        cpp = tmp_path / f"check_{hip_lib}_{i}.cpp"
        cpp.write_text("\n".join(src) + "\n")
        cmd = [hip_oracle.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-fsyntax-only", "-w",
               "-ferror-limit=0", *[f"-D{m}" for m in DEFINES.get(hip_lib, ())],
               *[f"-I{d}" for d in dirs[1:]], str(cpp)]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=hip_oracle.environ(),
                              timeout=900)
        assert proc.returncode == 0, _missing_names(proc.stderr) or proc.stderr[-4000:]


def _units(heads: list[str], names: list[str], include: Path) -> list[tuple[list[str],
                                                                              list[str]]]:
    """(headers, names) per unit: one for everything, and one per ALONE header
    that the release maps to, holding the names its text (or its amd_detail
    twin's) spells."""
    units: list[tuple[list[str], list[str]]] = []
    for alone in (h for h in ALONE if h in heads):
        twin = include / alone.replace("hip/hip_", "hip/amd_detail/amd_hip_")
        text = "".join(p.read_text(errors="replace") for p in (include / alone, twin)
                       if p.is_file())
        spelled = set(re.findall(r"\w+", text))
        units.append((["hip/hip_runtime.h", alone], [n for n in names if n in spelled]))
        heads = [h for h in heads if h != alone]
        names = [n for n in names if n not in spelled]
    return [(heads, names), *units]


def _missing_names(stderr: str) -> str:
    names = sorted(set(re.findall(r"no member named '(\w+)' in the global namespace", stderr)))
    return f"{len(names)} names not declared: {' '.join(names)}" if names else ""


def _macros(lib) -> set[str]:
    out: set[str] = set()
    for f in lib.files:
        out.update(re.findall(r"#\s*define\s+(\w+)", f.read_text(errors="replace")))
    return out
