"""Separable compilation (hipport.buildfiles.cmake.rdc): where the device link
of relocatable device code happens depends on the kind of target, and
Clang < 17 needs a static library's objects.  tests/buildfiles/rdc_build_test.py
builds such a project with both HIP oracles."""
from __future__ import annotations

import pytest

from hipport.buildfiles import convert_build_file
from hipport.settings import Settings

COMPILE = "target_compile_options({t} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
OWN_LINK = 'target_link_options({t} PRIVATE "$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")\n'
CONSUMER_LINK = ('target_link_options({t} PUBLIC "$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")'
                 '\n')
OLD_CLANG = ("# Clang < 17 (ROCm < 5.7) links no device code from a static library given by "
             "path: link its objects\ntarget_link_options({t} INTERFACE \"$<$<AND:$<LINK_LANGUAGE"
             ":HIP>,$<VERSION_LESS:$<HIP_COMPILER_VERSION>,17>,$<STREQUAL:$<TARGET_PROPERTY:{t},"
             'TYPE>,STATIC_LIBRARY>>:$<TARGET_OBJECTS:{t}>>")\n')
ON = "set_target_properties({t} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"


def convert(text: str, rocm: tuple[int, ...] | None = None) -> str:
    options = Settings(rocm_version=rocm, offload_arch=("gfx90a",))
    out = convert_build_file(text.encode(), "cmake", options).output.decode()
    again = convert_build_file(out.encode(), "cmake", options).output.decode()
    assert again == out, "converting twice must change nothing"
    return out


def own(t: str) -> str:
    return COMPILE.format(t=t) + OWN_LINK.format(t=t)


def consumers(t: str, old_clang: bool = True) -> str:
    return (COMPILE.format(t=t) + CONSUMER_LINK.format(t=t)
            + (OLD_CLANG.format(t=t) if old_clang else ""))


@pytest.mark.parametrize("target, linked", [
    pytest.param("add_executable(t main.cpp)\n", own("t"), id="executable"),
    pytest.param("cuda_add_executable(t main.cpp)\n", own("t"), id="legacy-executable"),
    pytest.param("add_library(t SHARED k.cpp)\n", own("t"), id="shared-library"),
    pytest.param("add_library(t MODULE k.cpp)\n", own("t"), id="module-library"),
    pytest.param("add_library(t STATIC k.cpp)\n", consumers("t"), id="static-library"),
    pytest.param("add_library(t k.cpp)\n", consumers("t"), id="library-of-default-kind"),
    pytest.param("add_library(t OBJECT k.cpp)\n", consumers("t", old_clang=False),
                 id="object-library"),
    pytest.param("", consumers("t"), id="target-of-another-file"),
])
def test_device_link_follows_the_kind_of_target(target: str, linked: str):
    converted = target.replace("cuda_add_executable", "add_executable")
    assert convert(target + ON.format(t="t")) == converted + linked


@pytest.mark.parametrize("rocm, old_clang", [
    pytest.param(None, True, id="any-rocm"),
    pytest.param((5, 2), True, id="rocm-5.2"),
    pytest.param((5, 6, 1), True, id="rocm-5.6"),
    pytest.param((5, 7), False, id="rocm-5.7"),
    pytest.param((6, 4), False, id="rocm-6.4"),
])
def test_static_library_objects_only_for_clang_before_17(rocm, old_clang: bool):
    text = "add_library(t STATIC k.cpp)\n" + ON.format(t="t")
    assert convert(text, rocm) == "add_library(t STATIC k.cpp)\n" + consumers("t", old_clang)


@pytest.mark.parametrize("before, after", [
    pytest.param("add_library(lib STATIC a.cpp)\nadd_executable(app m.cpp)\n"
                 "set_property(TARGET lib app PROPERTY CUDA_SEPARABLE_COMPILATION ON)\n",
                 "add_library(lib STATIC a.cpp)\nadd_executable(app m.cpp)\n"
                 + consumers("lib", old_clang=False) + own("app"), id="set-property-two-targets"),
    pytest.param("add_executable(app m.cpp)\nset_target_properties(app PROPERTIES\n"
                 "  CUDA_SEPARABLE_COMPILATION ON\n  OUTPUT_NAME x)\n",
                 "add_executable(app m.cpp)\nset_target_properties(app PROPERTIES\n"
                 "  OUTPUT_NAME x)\n" + own("app").rstrip("\n") + "\n",
                 id="other-properties-kept"),
    pytest.param("add_library(${PROJECT_NAME} STATIC a.cpp)\n" + ON.format(t="${PROJECT_NAME}"),
                 "add_library(${PROJECT_NAME} STATIC a.cpp)\n"
                 + consumers("${PROJECT_NAME}", old_clang=False), id="target-named-by-variable"),
    pytest.param("if(GPU)\n  add_library(k STATIC a.cpp)\n  " + ON.format(t="k") + "endif()\n",
                 "if(GPU)\n  add_library(k STATIC a.cpp)\n  "
                 + "  ".join(consumers("k", old_clang=False).splitlines(keepends=True))
                 + "endif()\n", id="indented"),
    pytest.param("set(CUDA_SEPARABLE_COMPILATION ON)\n",
                 "add_compile_options($<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
                 'add_link_options("$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")\n',
                 id="variable"),
    pytest.param("set(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n",
                 "add_compile_options($<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
                 'add_link_options("$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")\n',
                 id="cmake-variable"),
    pytest.param("add_executable(t x.cpp)\nset_target_properties(t PROPERTIES\n"
                 "  CUDA_SEPARABLE_COMPILATION OFF\n  CUDA_RESOLVE_DEVICE_SYMBOLS ON)\n",
                 "add_executable(t x.cpp)\n", id="off-and-resolve-removed"),
    pytest.param("set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION OFF "
                 "OUTPUT_NAME x)\n", "set_target_properties(t PROPERTIES OUTPUT_NAME x)\n",
                 id="off-other-property-kept"),
])
def test_rdc_fixes(before: str, after: str):
    assert convert(before, (6, 4)) == after


@pytest.mark.parametrize("text", [
    pytest.param("set(MY_SEPARABLE_COMPILATION ON)\n", id="user-variable"),
    pytest.param("set_target_properties(t PROPERTIES POSITION_INDEPENDENT_CODE ON)\n",
                 id="other-property"),
    pytest.param('target_link_options(t PUBLIC "$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")\n',
                 id="already-hip"),
])
def test_rdc_noop(text: str):
    assert convert(text) == text


def test_separable_from_a_variable_is_reported():
    text = "set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION ${RDC})\n"
    result = convert_build_file(text.encode(), "cmake", Settings(offload_arch=("gfx90a",)))
    assert result.output.decode() == text
    assert [f.code for f in result.findings] == ["HP653"]
