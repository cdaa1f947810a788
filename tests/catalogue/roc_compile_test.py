"""The `--roc` targets of cuSPARSE and cuSOLVER compile with ROCm 6.4's and
7.2's hipcc, as hipport emits them for that release: every rocSPARSE /
rocSOLVER function, type and enumerator the roc view gives, brought in with a
using-declaration after the roc header (-fsyntax-only)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hipport.table import bundled_table
from hipport.table.versions import Availability, for_target
from tests.catalogue.compile_test import _missing_names
from tests.toolchain import require_hip_oracle

pytestmark = pytest.mark.slow

# roc library -> (the catalogue library, the header hipport includes for it)
ROC = {"rocsparse": ("cusparse", "rocsparse/rocsparse.h"),
       "rocsolver": ("cusolver", "rocsolver/rocsolver.h")}


def roc_names(library: str, release: tuple[int, int]) -> list[str]:
    out = set()
    for entry in bundled_table().in_mode(True):
        if entry.library != library or entry.kind not in ("function", "type", "enum") or \
                not entry.status.converts or entry.hip is None or entry.hip == entry.cuda:
            continue
        resolved, availability = for_target(entry, release)
        if availability is Availability.AVAILABLE and resolved.hip and \
                resolved.hip.startswith(("roc", "_roc")):
            out.add(resolved.hip)
    return sorted(out)


@pytest.mark.parametrize("roc_lib", sorted(ROC))
@pytest.mark.parametrize("oracle", ["rocm-6.4", "rocm-7.2"])
def test_roc_targets_compile(roc_lib: str, oracle: str, tmp_path: Path) -> None:
    hip_oracle = require_hip_oracle(oracle)
    library, header = ROC[roc_lib]
    names = roc_names(library, hip_oracle.hip_version)
    assert len(names) > 50, names
    src = ["#include <hip/hip_runtime.h>", f"#include <{header}>", "namespace hipport_check {"]
    src += [f"using ::{n};" for n in names] + ["}"]
    cpp = tmp_path / f"check_{roc_lib}.cpp"
    cpp.write_text("\n".join(src) + "\n")
    cmd = [hip_oracle.hipcc, "--offload-arch=gfx90a", "-std=c++17", "-fsyntax-only", "-w",
           "-ferror-limit=0", str(cpp)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=hip_oracle.environ(),
                          timeout=900)
    assert proc.returncode == 0, _missing_names(proc.stderr) or proc.stderr[-4000:]
