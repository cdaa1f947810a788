"""CUDA libraries converted builds no longer link (HP611, HP622): the list
under `dropped:` in mappings/rocm-libraries.yaml, in CMake and Make link
lines; look-alikes (the project's own libraries, strings) stay."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hipport.buildfiles import convert_build_file
from hipport.libraries import library_table
from hipport.settings import Settings

OPTS = Settings(offload_arch=("gfx90a", "gfx942"))
HEADERS = Path(__file__).resolve().parents[2] / "mappings" / "headers.yaml"


def convert(text: str, kind: str) -> tuple[str, list[str]]:
    result = convert_build_file(text.encode(), kind, OPTS)
    return result.output.decode(), [f.code for f in result.findings]


@pytest.mark.parametrize("before, after, codes", [
    # CUDALibrarySamples' shape: one function links cuSOLVER's multi-GPU library
    # into every sample, also those that never call it
    pytest.param("function(add_example NAME)\n  target_link_libraries(${NAME}\n"
                 "    PUBLIC\n        cusolver\n        cusolverMg\n  )\nendfunction()\n",
                 "function(add_example NAME)\n  find_package(hipsolver REQUIRED)\n"
                 "  target_link_libraries(${NAME}\n"
                 "    PUBLIC\n        roc::hipsolver\n  )\nendfunction()\n",
                 ["HP605", "HP622"], id="bare-name-in-a-shared-function"),
    pytest.param("target_link_libraries(t PRIVATE CUDA::cudart CUDA::nvml)\n",
                 "find_package(hip REQUIRED)\ntarget_link_libraries(t PRIVATE hip::host)\n",
                 ["HP605", "HP622"],
                 id="toolkit-target"),
    pytest.param("target_link_libraries(t PRIVATE CUDA::cudadevrt)\n",
                 "target_link_libraries(t PRIVATE)\n", ["HP611"], id="device-runtime-alone"),
    pytest.param("target_link_libraries(t PRIVATE $<$<BOOL:${PROFILE}>:CUDA::cupti>)\n",
                 "target_link_libraries(t PRIVATE $<$<BOOL:${PROFILE}>:>)\n", ["HP622"],
                 id="inside-a-generator-expression"),
    pytest.param("link_libraries(cublas nppc nppif)\n",
                 "find_package(hipblas REQUIRED)\nlink_libraries(roc::hipblas)\n",
                 ["HP605", "HP622", "HP622"], id="several"),
    pytest.param("set(PROFILING_LIBS CUDA::cupti)\n", "set(PROFILING_LIBS)\n", ["HP622"],
                 id="a-variable-listing-libraries"),
])
def test_cmake_link_lines_drop_them(before: str, after: str, codes: list[str]):
    out, found = convert(before, "cmake")
    assert out == after
    assert sorted(c for c in found if c in {"HP605", "HP611", "HP622"}) == sorted(codes)
    assert "HP652" not in found
    assert convert(out, "cmake")[0] == out


@pytest.mark.parametrize("before, after", [
    pytest.param("LIBS := -lcusolver -lcusolverMg -lcudadevrt\n", "LIBS := -lhipsolver\n",
                 id="variable"),
    pytest.param("app: a.cu\n\tnvcc -o app a.cu -lnvidia-ml -lcupti\n",
                 "app: a.cu\n\thipcc -o app a.cu\n", id="recipe"),
])
def test_make_link_flags_drop_them(before: str, after: str):
    out, found = convert(before, "make")
    assert out == after
    assert "HP622" in found and "HP652" not in found


@pytest.mark.parametrize("text, kind", [
    pytest.param("target_link_libraries(t PRIVATE cusolverMgHelpers my_cupti)\n", "cmake",
                 id="the-projects-own-libraries"),
    pytest.param('message(STATUS "links cusolverMg and CUDA::nvml")\n', "cmake",
                 id="a-message"),
    pytest.param("install(TARGETS cusolverMg)\n", "cmake", id="not-a-link-list"),
    pytest.param("target_link_libraries(t PRIVATE ${cusolverMg})\n", "cmake",
                 id="a-variable-of-that-name"),
    pytest.param("LIBS := -lcusolverMgX -lnvml_wrapper\n", "make", id="longer-link-names"),
])
def test_look_alikes_stay(text: str, kind: str):
    out, found = convert(text, kind)
    assert out == text
    assert not {"HP611", "HP622"} & set(found)


def test_every_dropped_library_blocks_its_users_at_an_unsupported_header():
    """Dropping is safe only because a source that needs the library cannot
    build anyway: its header has no HIP counterpart (a blocker at the include)."""
    status = {e["cuda"]: e.get("status")
              for e in yaml.safe_load(HEADERS.read_text(encoding="utf-8"))["entries"]}
    table = library_table()
    kept = {*table.by_link_name, *table.by_cmake_target}
    for lib in table.dropped:
        assert lib.code in {"HP611", "HP622"}
        assert lib.code == "HP611" or lib.headers, lib.key
        for header in lib.headers:
            assert status.get(header) == "unsupported", (lib.key, header)
        assert not kept & {*lib.link_names, *lib.cmake_targets}, lib.key
