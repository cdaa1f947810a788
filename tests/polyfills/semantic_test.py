"""Every fallback computes what CUDA's API computes.

There is no AMD GPU here, so the fallbacks run on the CPU:

* device fallbacks (warp intrinsics, cooperative groups, cache hints) as host
  code over a model of a 32- or 64-lane wavefront (semantic/wave.h: a
  thread per lane, HIP's shuffle arithmetic, poison from inactive lanes),
  each lane's result compared with a reference computed directly from
  CUDA's definition (semantic/<family>.cpp);
* host and host-device fallbacks (memory locations, L2 persistence,
  bfloat16) through the real generated header with each HIP oracle's
  headers, run on the host (HIP's runtime calls they make are recorded by
  the test program), against CUDA's documented results.

A driver lists the fallbacks it checks (``--list``); every fallback with
names must be checked by its family's driver.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.polyfills import DEFAULT_HEADER, Fallback, Status, emulations, render
from tests.ci import missing
from tests.polyfills.helpers import EVERY_EXACTNESS, NAMED, POLYFILLS, target_of
from tests.toolchain import HipOracle, require_nvcc

pytestmark = pytest.mark.slow

SEMANTIC = Path(__file__).resolve().parent / "semantic"
# Families whose fallbacks run over the wavefront model, with clang++.
WAVE_FAMILIES = ("cache-hints", "warp", "cooperative-groups", "device-functions")
HOST_CXX = ("clang++-15", "clang++")


def _driver(family: str) -> Path:
    return SEMANTIC / f"{family.replace('-', '_')}.cpp"


def fallback_code(family: str) -> str:
    """The code of a family's fallbacks and what they require, without
    guards: the model stands in for HIP's headers (standard ones stay)."""
    wanted = [f for f in POLYFILLS if f.family == family]
    lines = []
    for fallback in POLYFILLS.closure(wanted):
        lines += [f"#include <{h}>" for h in fallback.includes if not h.startswith("hip/")]
        lines += [f"// {fallback.id}", fallback.code]
    return "\n".join(lines)


def _host_compiler() -> str:
    for name in HOST_CXX:
        found = shutil.which(name)
        if found:
            return found
    missing("no clang++ for the wavefront model (C++20, std::barrier)")


@pytest.fixture(scope="module")
def wave_programs(tmp_path_factory) -> dict[str, Path]:
    """Each family's driver built once over the model."""
    built: dict[str, Path] = {}
    out = tmp_path_factory.mktemp("wave")
    cxx = _host_compiler()
    for family in WAVE_FAMILIES:
        code = out / f"{family}.h"
        code.write_text(fallback_code(family))
        program = out / family
        proc = subprocess.run(
            [cxx, "-std=c++20", "-O1", "-pthread", "-Wall", "-Wno-unused-function",
             f"-I{SEMANTIC}", f'-DHIPPORT_FALLBACKS="{code}"', str(_driver(family)),
             "-o", str(program)], capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, f"{family}:\n{proc.stderr[-4000:]}"
        built[family] = program
    return built


def _run(argv: list[str], timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize("family", WAVE_FAMILIES)
def test_each_driver_checks_every_fallback_of_its_family(family: str, wave_programs):
    listed = _run([str(wave_programs[family]), "--list"]).stdout.split()
    assert sorted(listed) == sorted(f.id for f in NAMED if f.family == family)


@pytest.mark.parametrize("fallback", [f for f in NAMED if f.family in WAVE_FAMILIES],
                         ids=lambda f: f.id)
def test_the_fallback_computes_cudas_results_on_the_wavefront_model(fallback: Fallback,
                                                                   wave_programs):
    proc = _run([str(wave_programs[fallback.family]), fallback.id])
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert " 0 failed" in proc.stdout


def test_the_model_catches_a_wrong_fallback(tmp_path: Path):
    """The checks can fail: __ldcv reading the next element is caught."""
    code = tmp_path / "broken.h"
    load = "return hipport_polyfill::volatile_load(p"
    code.write_text(fallback_code("cache-hints").replace(f"{load});", f"{load} + 1);"))
    program = tmp_path / "broken"
    proc = subprocess.run(
        [_host_compiler(), "-std=c++20", "-O1", "-pthread", f"-I{SEMANTIC}",
         f'-DHIPPORT_FALLBACKS="{code}"', str(_driver("cache-hints")), "-o", str(program)],
        capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = _run([str(program), "ldcv"])
    assert result.returncode == 1 and "FAIL __ldcv" in result.stderr


# ---------------------------------------------------------------- on the host --
HOST_FAMILIES = ("memory-location", "l2-persistence", "bf16", "library-types",
                 "runtime-macros")
HOST_FALLBACKS = [f for f in NAMED if f.family in HOST_FAMILIES]
_HOST_PROGRAMS: dict[str, Path] = {}


def _host_program(oracle: HipOracle, tmp_path_factory) -> Path:
    """semantic/hip_host.cpp with the header generated for the oracle's
    release, built once per oracle."""
    if oracle.name not in _HOST_PROGRAMS:
        out = tmp_path_factory.mktemp(f"host-{oracle.name}")
        names = [n for f in HOST_FALLBACKS for n in f.cuda_names]
        (out / DEFAULT_HEADER).write_bytes(render(names, target_of(oracle), EVERY_EXACTNESS))
        program = out / "hip_host"
        proc = subprocess.run(
            oracle.command("hipcc", "--offload-arch=gfx90a", "-std=c++17", "-O1", f"-I{out}",
                           f"-I{SEMANTIC}", "-x", "hip", str(SEMANTIC / "hip_host.cpp"), "-o",
                           str(program)),
            env=oracle.environ(), capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, proc.stderr[-4000:]
        _HOST_PROGRAMS[oracle.name] = program
    return _HOST_PROGRAMS[oracle.name]


def _run_on(oracle: HipOracle, *argv: str) -> subprocess.CompletedProcess[str]:
    return _run([*oracle.runner, *argv])


def test_the_host_driver_checks_every_fallback_the_release_gets(hip_oracle: HipOracle,
                                                               tmp_path_factory):
    program = _host_program(hip_oracle, tmp_path_factory)
    listed = _run_on(hip_oracle, str(program), "--list").stdout.split()
    applied = {e.fallback.id for e in emulations(
        [n for f in HOST_FALLBACKS for n in f.cuda_names], target_of(hip_oracle),
        EVERY_EXACTNESS) if e.status is Status.APPLIED}
    assert sorted(listed) == sorted(applied)
    target = target_of(hip_oracle)
    assert {f.id for f in HOST_FALLBACKS
            if f.rocm.needs is None and not f.rocm.native_in(target)} <= applied


@pytest.mark.parametrize("fallback", HOST_FALLBACKS, ids=lambda f: f.id)
def test_the_fallback_computes_cudas_results_on_the_host(fallback: Fallback,
                                                         hip_oracle: HipOracle,
                                                         tmp_path_factory):
    target = target_of(hip_oracle)
    if not fallback.rocm.buildable_in(target) or fallback.rocm.native_in(target):
        # not in this release's header (HP706, or ROCm has the real API, as
        # 7.2 has the stream attributes); the listing test checks that
        return
    program = _host_program(hip_oracle, tmp_path_factory)
    proc = _run_on(hip_oracle, str(program), fallback.id)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-4000:]
    assert " 0 failed" in proc.stdout
    if "digest" in proc.stdout:
        assert _digests(proc.stdout) <= _cuda_digests(tmp_path_factory)


def _digests(text: str) -> set[str]:
    return {line for line in text.splitlines() if line.startswith("digest ")}


_CUDA_DIGESTS: set[str] = set()


def _cuda_digests(tmp_path_factory) -> set[str]:
    """CUDA's own conversions (nvcc, its cuda_bf16.hpp host code) on the
    same inputs."""
    if not _CUDA_DIGESTS:
        nvcc = require_nvcc()
        program = tmp_path_factory.mktemp("cuda-bf16") / "bf16_cuda"
        proc = subprocess.run([nvcc, "-std=c++17", "-O1", f"-I{SEMANTIC}",
                               str(SEMANTIC / "bf16_cuda.cu"), "-o", str(program)],
                              capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, proc.stderr[-3000:]
        result = _run([str(program)])
        assert result.returncode == 0, result.stderr
        _CUDA_DIGESTS.update(_digests(result.stdout))
        assert len(_CUDA_DIGESTS) == 2
    return _CUDA_DIGESTS
