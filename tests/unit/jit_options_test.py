"""Driver JIT options (`CU_JIT_*`) become `hipJitOption*` because every CUDA
link call hipport converts reaches HIP's driver-shaped linker (`hipLink*`,
ROCm 6.4 on), never hipRTC's (`hiprtcLink*`, which takes
`hiprtcJIT_option` / `HIPRTC_JIT_*`): docs/nvrtc.md, "Driver JIT linker"."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from hipport.table import parse_mapping_file
from hipport.table.schema import Mapping
from tests.catalogue.catalogue import yaml_files

LINK = b"""#include <cuda.h>
CUresult link(CUlinkState* state) {
  CUjit_option opts[] = {CU_JIT_MAX_REGISTERS, CU_JIT_LOG_VERBOSE};
  void* values[] = {(void*)(size_t)64, (void*)(size_t)1};
  return cuLinkCreate(2, opts, values, state);
}
"""


def _targets(entry: Mapping) -> list[str]:
    """Every HIP name ``entry`` can emit, for any target release."""
    names = [entry.hip or ""]
    for other in (entry.older, entry.newer):
        if other is not None:
            names += _targets(other)
    return names


def test_no_cuda_name_converts_to_a_hiprtc_link_call():
    # The premise of mapping CU_JIT_* to hipJitOption* by name alone: were a
    # cuLink* (or nvJitLink*) call ever to become hiprtcLink*, its options
    # array would need HIPRTC_JIT_* and a rule that follows the array.
    reaching = [f"{path.name}: {entry.cuda} -> {name}" for path in yaml_files()
                for entry in parse_mapping_file(path.read_text(), str(path))
                for name in _targets(entry) if name.startswith(("hiprtcLink", "HIPRTC_JIT"))]
    assert reaching == []


@pytest.mark.parametrize("target", [(6, 4), (7, 2)])
def test_an_options_array_passed_to_culinkcreate_stays_hipjitoption(target):
    out = convert_source(LINK, Settings(rocm_version=target), name="link.cu").output.decode()
    assert "hipJitOption opts[] = {hipJitOptionMaxRegisters, hipJitOptionLogVerbose};" in out
    assert "hipLinkCreate(2, opts, values, state)" in out
    assert "HIPRTC_JIT" not in out and "hiprtcLink" not in out


def test_hip_52_has_no_linker_so_the_link_calls_stay_with_a_finding():
    # HIP 5.2 declares neither hipLink* nor hiprtcLink* (its hip/hiprtc.h has no linker).
    result = convert_source(LINK, Settings(rocm_version=(5, 2)), name="link.cu")
    out = result.output.decode()
    assert "cuLinkCreate(2, opts, values, state)" in out and "hiprtcLink" not in out
    assert any(f.code == "HP905" and "cuLinkCreate" in f.finding.message for f in result.findings)
