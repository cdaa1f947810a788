"""A CUDA project with separable compilation (tests/buildfiles/rdc_library: a
static library of relocatable device code, an executable whose kernel calls
the library's __device__ function, and a C++ executable that launches the
library's kernel) converts and links with both HIP oracles by `cmake -S . -B
build && cmake --build build` and by `make`.

Nothing can run without a GPU; the evidence is that the links succeed (an
unresolved device function fails the device link) and that every
executable's HIP fat binary holds, for every GPU, the kernels it launches
(a kernel that is registered but missing fails only at run time)."""
from __future__ import annotations

import os
import shutil
import struct
from pathlib import Path

import pytest

from tests.buildfiles.building import (
    cmake_build,
    convert_project,
    executables,
    make_build,
    run,
    tail,
)
from tests.ci import missing
from tests.toolchain import HipOracle, require_nvcc

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "rdc_library"
BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
# executable -> kernel descriptors its device code must hold
KERNELS = {"rdc_app": [b"_Z5twicePfi.kd"],
           "rdc_host_app": [b"_Z12scale_kernelPfif.kd"]}


def elf_section(path: Path, name: str) -> bytes:
    """The bytes of an ELF64 (little-endian) section."""
    data = path.read_bytes()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = headers[shstrndx]
    for sh_name, _, _, _, offset, size in headers:
        start = names[4] + sh_name
        if data[start:data.index(b"\0", start)].decode() == name:
            return data[offset:offset + size]
    raise AssertionError(f"{path.name} has no {name} section")


def code_objects(fatbin: bytes) -> dict[str, bytes]:
    """Bundle entry id (``hipv4-amdgcn-amd-amdhsa--gfx90a``) -> code object."""
    assert fatbin.startswith(BUNDLE_MAGIC), f"not an offload bundle: {fatbin[:24]!r}"
    count, = struct.unpack_from("<Q", fatbin, len(BUNDLE_MAGIC))
    entries, at = {}, len(BUNDLE_MAGIC) + 8
    for _ in range(count):
        offset, size, length = struct.unpack_from("<QQQ", fatbin, at)
        entry = fatbin[at + 24:at + 24 + length].decode()
        entries[entry] = fatbin[offset:offset + size]
        at += 24 + length
    return entries


def assert_kernels_linked(directory: Path, oracle: HipOracle) -> None:
    for executable, kernels in KERNELS.items():
        entries = code_objects(elf_section(directory / executable, ".hip_fatbin"))
        gpus = {e.rsplit("--", 1)[-1]: code for e, code in entries.items() if "amdgcn" in e}
        assert set(gpus) == set(oracle.offload_archs), (executable, sorted(entries))
        for gpu, code in gpus.items():
            for kernel in kernels:
                assert kernel in code, f"{executable} has no {kernel.decode()} for {gpu}"


def required(oracle: HipOracle, *tools: str) -> None:
    for tool in tools:
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")


def test_cmake_static_rdc_library_links_into_executables(tmp_path: Path,
                                                         hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    source = tmp_path / "src"
    # What a user targeting this ROCm converts with (Clang < 17 needs more).
    convert_project(PROJECT, source, hip_oracle, rocm_version=hip_oracle.hip_version)
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n[rdc_library] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert_kernels_linked(tmp_path / "build", hip_oracle)


def test_makefile_links_dc_objects_with_fgpu_rdc(tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "make")
    convert_project(PROJECT, tmp_path, hip_oracle, rocm_version=hip_oracle.hip_version)
    build = make_build(hip_oracle, tmp_path)
    print(f"\n[rdc_library] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert_kernels_linked(tmp_path, hip_oracle)


def test_the_cuda_project_builds_with_nvcc(tmp_path: Path):
    """The input is a real separable-compilation project: CMake device-links
    the library into both executables, and so does nvcc for make."""
    nvcc = require_nvcc()
    cmake = shutil.which("cmake") or missing("cmake not found")
    make = shutil.which("make") or missing("make not found")
    build = tmp_path / "build"
    configure = run([cmake, "-S", str(PROJECT), "-B", str(build),
                     f"-DCMAKE_CUDA_COMPILER={nvcc}"], tmp_path, {**os.environ})
    assert configure.returncode == 0, tail(configure, 40)
    proc = run([cmake, "--build", str(build)], tmp_path, {**os.environ})
    assert proc.returncode == 0, tail(proc, 40)
    assert "Linking CUDA device code" in proc.stdout
    assert set(KERNELS) <= executables(build)
    plain = tmp_path / "make"
    shutil.copytree(PROJECT, plain)
    proc = run([make, f"NVCC={nvcc}"], plain, {**os.environ})
    assert proc.returncode == 0, tail(proc, 40)
    assert set(KERNELS) <= executables(plain)
