"""Single-source build files (`--strategy compat`): before/after pairs,
look-alikes that stay, and a second run that changes nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.buildfiles import BuildStep, convert_build_file
from hipport.buildfiles.cmake.single_source import project_switch
from hipport.buildfiles.make.single_source import MAKE_HEADER
from hipport.cli import cli
from hipport.compat.strategy import CompatStrategy
from hipport.settings import Settings

OPTIONS = Settings(offload_arch=("gfx90a",))
COMPAT = CompatStrategy(macro="").build_findings
MARK = "# hipport: single-source build"
ROOT = "$(or $(ROCM_PATH),$(shell hipconfig --rocmpath 2>/dev/null || echo /opt/rocm))"


def convert(text: str, kind: str):
    return convert_build_file(text.encode(), kind, OPTIONS, COMPAT)


def output(text: str, kind: str) -> str:
    result = convert(text, kind)
    again = convert_build_file(result.output, kind, OPTIONS, COMPAT)
    assert again.output == result.output, "a second run changed the file"
    assert not [f for f in again.findings if f.finding.fix is not None]
    return result.output.decode()


def header(switch: str) -> str:
    return (f'option({switch} "Build for AMD GPUs with HIP" OFF)  {MARK}\n'
            f"if({switch})\n  add_compile_definitions(__HIP_PLATFORM_AMD__=1)\nendif()\n")


# ------------------------------------------------------------------ CMake --
def test_cmake_project_sources_targets_and_libraries():
    before = ("cmake_minimum_required(VERSION 3.18)\n"
              "project(my-app LANGUAGES CXX CUDA)\n"
              "set(CMAKE_CUDA_ARCHITECTURES 80)\n"
              "find_package(CUDAToolkit REQUIRED)\n"
              "add_executable(app main.cu util.cpp)\n"
              "target_link_libraries(app PRIVATE CUDA::cublas CUDA::cudart)\n"
              "set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n")
    after = ("cmake_minimum_required(VERSION 3.18)\n"  # raising it would move CUDA's policies
             + header("MY_APP_USE_HIP") +
             f"if(MY_APP_USE_HIP)  {MARK}\n"
             "  project(my-app LANGUAGES CXX HIP)\n"
             '  set(CMAKE_HIP_ARCHITECTURES "gfx90a")\n'
             "  find_package(hip REQUIRED)\n"
             "  find_package(hipblas REQUIRED)\n"
             "  add_executable(app main.cu util.cpp)\n"
             "  set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"
             "  target_link_libraries(app PRIVATE roc::hipblas hip::host)\n"
             "  target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)\n"
             '  target_link_options(app PRIVATE "$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>")\n'
             "else()\n"
             "  project(my-app LANGUAGES CXX CUDA)\n"
             "  set(CMAKE_CUDA_ARCHITECTURES 80)\n"
             "  find_package(CUDAToolkit REQUIRED)\n"
             "  add_executable(app main.cu util.cpp)\n"
             "  target_link_libraries(app PRIVATE CUDA::cublas CUDA::cudart)\n"
             "  set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"
             "endif()\n")
    assert output(before, "cmake") == after


def test_cmake_every_change_is_applied_and_counted():
    result = convert("project(a CUDA)\nadd_executable(a a.cu)\n", "cmake")
    assert {f.code for f in result.findings} == {"HP601", "HP603", "HP606", "HP614"}
    assert all(f.applied for f in result.findings)


def test_cmake_condition_gets_both_sides():
    before = ("project(a CXX CUDA)\n"
              "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n"
              "  set(CMAKE_CUDA_ARCHITECTURES 80)\n"
              "endif()\n")
    after = (header("A_USE_HIP") +
             f"if(A_USE_HIP)  {MARK}\n  project(a CXX HIP)\nelse()\n  project(a CXX CUDA)\n"
             "endif()\n"
             "if((A_USE_HIP AND (NOT DEFINED CMAKE_HIP_ARCHITECTURES)) OR "
             "(NOT A_USE_HIP AND (NOT DEFINED CMAKE_CUDA_ARCHITECTURES)))\n"
             f"  if(A_USE_HIP)  {MARK}\n"
             '    set(CMAKE_HIP_ARCHITECTURES "gfx90a")\n'
             "  else()\n"
             "    set(CMAKE_CUDA_ARCHITECTURES 80)\n"
             "  endif()\n"
             "endif()\n")
    assert output(before, "cmake") == after


def test_cmake_removed_command_only_on_the_cuda_side():
    before = "project(a CUDA)\nmessage(a)\nset(CUDA_SEPARABLE_COMPILATION OFF)\n\nmessage(hi)\n"
    out = output(before, "cmake")
    assert (f"if(NOT A_USE_HIP)  {MARK}\n  set(CUDA_SEPARABLE_COMPILATION OFF)\nendif()\n"
            "\nmessage(hi)\n") in out


def test_cmake_without_project_follows_the_projects_option():
    before = "add_library(k STATIC k.cu)\n"
    after = (f"{MARK}: the switch is the project's <PROJECT>_USE_HIP option\n"
             'string(MAKE_C_IDENTIFIER "${PROJECT_NAME}_USE_HIP" HIPPORT_USE_HIP)\n'
             'string(TOUPPER "${HIPPORT_USE_HIP}" HIPPORT_USE_HIP)\n'
             f"if(${{HIPPORT_USE_HIP}})  {MARK}\n"
             "  add_library(k STATIC k.cu)\n"
             "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
             "else()\n  add_library(k STATIC k.cu)\nendif()\n")
    assert output(before, "cmake") == after


def test_cmake_unswitchable_changes_are_reported():
    before = "project(a CUDA)\nif(CMAKE_CUDA_COMPILER)\nendif(CMAKE_CUDA_COMPILER)\n"
    result = convert(before, "cmake")
    out = result.output.decode()
    assert out.endswith("endif(CMAKE_CUDA_COMPILER)\n")
    assert [f.code for f in result.findings if f.code == "HP656"] == ["HP656"]


def test_cmake_computed_project_name_is_spelled_by_cmake():
    before = 'project("${NAME}_example" CUDA)\n'
    after = (f"{MARK}: the option is <PROJECT>_USE_HIP, <PROJECT> the project's name\n"
             'string(MAKE_C_IDENTIFIER "${NAME}_example_USE_HIP" HIPPORT_USE_HIP)\n'
             'string(TOUPPER "${HIPPORT_USE_HIP}" HIPPORT_USE_HIP)\n'
             'option(${HIPPORT_USE_HIP} "Build for AMD GPUs with HIP" OFF)\n'
             "if(${HIPPORT_USE_HIP})\n  add_compile_definitions(__HIP_PLATFORM_AMD__=1)\n"
             f"endif()\nif(${{HIPPORT_USE_HIP}})  {MARK}\n"
             "  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n"
             '    set(CMAKE_HIP_ARCHITECTURES "gfx90a")\n'
             "  endif()\n"
             '  project("${NAME}_example" CXX HIP)\n'
             'else()\n  project("${NAME}_example" CUDA)\nendif()\n')
    assert output(before, "cmake") == after


@pytest.mark.parametrize("text", [
    pytest.param("project(a CXX)\nadd_executable(a main.cpp)\n", id="no-cuda"),
    pytest.param("project(a CXX)\n# add_executable(a a.cu) CUDA::cudart\n", id="comment"),
    pytest.param("project(a CXX)\nset(MY_CUDA_FLAGS -O2)\n", id="own-variable"),
])
def test_cmake_look_alikes_stay(text: str):
    assert convert(text, "cmake").output == text.encode()


@pytest.mark.parametrize("name, switch", [("vector_add", "VECTOR_ADD_USE_HIP"),
                                          ("my-app.v2", "MY_APP_V2_USE_HIP"),
                                          ("3d", "_3D_USE_HIP"), ("${X}", None)])
def test_project_switch(name: str, switch: str | None):
    assert project_switch(name) == switch


# ------------------------------------------------------------------- make --
def test_make_switch_keeps_variable_names():
    before = ("# app\n"
              "CUDA_PATH ?= /usr/local/cuda\n"
              "NVCC ?= nvcc\n"
              "SM ?= 80\n"
              "NVCCFLAGS := -O2 -arch=sm_$(SM) -Xcompiler -Wall\n"
              "LDLIBS := -L$(CUDA_PATH)/lib64 -lcudart -lcublas\n"
              "\n"
              "app: app.cu\n"
              "\t$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS)\n"
              "k.o: k.cu\n"
              "\tnvcc -dc -arch=sm_80 -c $< -o $@\n")
    after = ("# app\n" + MAKE_HEADER +
             f"ifeq ($(HIP),1)  {MARK}\n"
             f"CUDA_PATH := {ROOT}\n"
             "NVCC ?= hipcc\n"
             "else\n"
             "CUDA_PATH ?= /usr/local/cuda\n"
             "NVCC ?= nvcc\n"
             "endif\n"
             "SM ?= 80\n"
             f"ifeq ($(HIP),1)  {MARK}\n"
             "NVCCFLAGS := -O2 --offload-arch=gfx90a -Wall\n"
             "LDLIBS := -L$(CUDA_PATH)/lib -lamdhip64 -lhipblas\n"
             "else\n"
             "NVCCFLAGS := -O2 -arch=sm_$(SM) -Xcompiler -Wall\n"
             "LDLIBS := -L$(CUDA_PATH)/lib64 -lcudart -lcublas\n"
             "endif\n"
             "\n"
             "app: app.cu\n"
             f"ifeq ($(HIP),1)  {MARK}\n"
             "\t$(NVCC) -fgpu-rdc $(NVCCFLAGS) -o $@ $< $(LDLIBS)\n"
             "else\n"
             "\t$(NVCC) $(NVCCFLAGS) -o $@ $< $(LDLIBS)\n"
             "endif\n"
             "k.o: k.cu\n"
             f"ifeq ($(HIP),1)  {MARK}\n"
             "\thipcc -fgpu-rdc -c --offload-arch=gfx90a -c $< -o $@\n"
             "else\n"
             "\tnvcc -dc -arch=sm_80 -c $< -o $@\n"
             "endif\n")
    assert output(before, "make") == after


def test_make_unswitchable_directive_is_reported():
    before = "include /usr/local/cuda/config.mk\n"
    result = convert(before, "make")
    assert result.output == result.original
    assert [f.code for f in result.findings] == ["HP656"]


@pytest.mark.parametrize("text", [
    pytest.param("CC := gcc\nCFLAGS := -O2 -Wall\napp: app.c\n\t$(CC) $(CFLAGS) -o $@ $<\n",
                 id="c-makefile"),
    pytest.param("NVCC ?= $(HOME)/bin/compiler\nOBJS := $(SRCS:.cu=.o)\n", id="cu-suffix"),
    pytest.param("# nvcc -arch=sm_80 -lcudart\nall:\n", id="comment"),
])
def test_make_look_alikes_stay(text: str):
    assert convert(text, "make").output == text.encode()


# -------------------------------------------------------------------- CLI --
def test_cli_strategy_compat(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "Makefile").write_text("F := -arch=sm_80\n")
    (src / "CMakeLists.txt").write_text("project(p CUDA)\n")
    result = CliRunner().invoke(cli, ["convert", str(src), "-o", str(tmp_path / "out"),
                                      "--strategy", "compat", "--offload-arch", "gfx90a", "-q"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "Makefile").read_text() == (
        f"{MAKE_HEADER}ifeq ($(HIP),1)  {MARK}\nF := --offload-arch=gfx90a\nelse\n"
        "F := -arch=sm_80\nendif\n")
    assert "option(P_USE_HIP" in (tmp_path / "out" / "CMakeLists.txt").read_text()


# -------------------------------------------------------------- --compat-macro --
def _with_macro(macro: str) -> BuildStep:
    return CompatStrategy(macro=macro).build_findings


@pytest.mark.parametrize("kind, text, defined", [
    pytest.param("cmake", "project(p CUDA)\n", "add_compile_definitions(USE_HIP=1)", id="cmake"),
    pytest.param("make", "F := -arch=sm_80\n",
                 "export HIPCC_COMPILE_FLAGS_APPEND += -DUSE_HIP=1", id="make"),
])
def test_the_hip_side_defines_the_project_macro(kind: str, text: str, defined: str):
    """The compat header and the sources test --compat-macro: the HIP side
    defines it (it defined __HIP_PLATFORM_AMD__, so `make HIP=1` saw the
    CUDA includes)."""
    out = convert_build_file(text.encode(), kind, OPTIONS, _with_macro("USE_HIP")).output.decode()
    assert defined in out and "__HIP_PLATFORM_AMD__" not in out
    again = convert_build_file(out.encode(), kind, OPTIONS, _with_macro("USE_HIP"))
    assert again.output.decode() == out
    # Another macro on a later run: the one definition is re-spelled.
    other = convert_build_file(out.encode(), kind, OPTIONS, _with_macro("WITH_ROCM"))
    assert other.output.decode() == out.replace("USE_HIP=1", "WITH_ROCM=1")
    back = convert_build_file(other.output, kind, OPTIONS, COMPAT)
    assert back.output.decode() == out.replace("USE_HIP=1", "__HIP_PLATFORM_AMD__=1")
