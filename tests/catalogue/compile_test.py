"""(e) a sample of mapped HIP functions/types per library compiles with each
HIP compiler (-fsyntax-only): each name is brought in with a
using-declaration, which works for overloaded functions too.  Names are
sampled from what the compiler's own headers declare."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.catalogue.catalogue import Located
from tests.ci import missing
from tests.toolchain import HipOracle
from tools.catalogue.hip_headers import scan_library

pytestmark = pytest.mark.slow

# hip library -> headers to include
INCLUDES = {
    "hip": ("hip/hip_runtime.h", "hip/hip_complex.h", "hip/hip_fp16.h", "hip/hip_bfloat16.h"),
    "hiprtc": ("hip/hiprtc.h",),
    "hipblas": ("hipblas/hipblas.h",),
    "hiprand": ("hiprand/hiprand.h", "hiprand/hiprand_kernel.h", "hiprand/hiprand_mtgp32_host.h"),
    "hipfft": ("hipfft/hipfft.h", "hipfft/hipfftXt.h"),
    "hipsparse": ("hipsparse/hipsparse.h",),
    "hipsolver": ("hipsolver/hipsolver.h",),
    "rccl": ("rccl/rccl.h",),
}
SAMPLE = int(os.environ.get("HIPPORT_CATALOGUE_SAMPLE", "200")) or 10**9
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


@pytest.mark.parametrize("hip_lib", sorted(INCLUDES))
def test_mapped_names_compile(entries: list[Located], hip_lib: str, tmp_path: Path,
                              hip_oracle: HipOracle) -> None:
    # The oracle's own include dir, then (HIP 5.2) the headers unpacked next to it.
    dirs = [hip_oracle.include_dirs[0]]
    if hip_oracle.include_dirs[1:]:
        dirs.append(_stage(tmp_path, hip_oracle.include_dirs[1:]))
    headers = scan_library(hip_lib, dirs)
    if not headers.present:
        msg = f"no {hip_lib} headers"
        missing(msg)
    names = [loc.entry["hip"] for loc in entries
             if loc.hip_library == hip_lib and loc.status in ("supported", "deprecated")
             and loc.entry["kind"] in KINDS and "::" not in loc.entry["hip"]
             and headers.has(loc.entry["hip"]) and "rule" not in loc.entry]
    macros = _macros(headers)
    names = [n for n in names if n not in macros and n not in _BUILTIN_TYPES]
    if not names:
        missing(f"nothing to compile for {hip_lib}: no mapped name found in its headers")
    src = [f"#include <{h}>" for h in INCLUDES[hip_lib]]
    src += ["namespace hipport_check {"] + [f"using ::{n};" for n in _sample(names)] + ["}"]
    cpp = tmp_path / f"check_{hip_lib}.cpp"
    cpp.write_text("\n".join(src) + "\n")
    cmd = [hip_oracle.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-fsyntax-only", "-w",
           *[f"-I{d}" for d in dirs[1:]], str(cpp)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=hip_oracle.environ(),
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]


def _macros(lib) -> set[str]:
    import re
    out: set[str] = set()
    for f in lib.files:
        out.update(re.findall(r"#\s*define\s+(\w+)", f.read_text(errors="replace")))
    return out
