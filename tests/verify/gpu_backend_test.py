"""Issue 32 §15 on ROCm 6.4, for real: projects that keep a CPU backend by
default and a HIP one behind an option.  Built with their defaults they
build green but compile no GPU code: `verify` says so (HP660, naming the
option); configured as their GPU build is (-D, --make-var) they build.  A
project that stops at "MODEL is unspecified" builds with -D MODEL=hip.
--units follows the branches the configure takes."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.toolchain import HipOracle, require_hip_oracle, toolchain_cache
from tests.verify.build_test import KERNEL, finding, tree, verify

pytestmark = pytest.mark.slow

SERIAL = "void launch(int *p) { p[0] = 1; }\n"
MAIN = "void launch(int *p);\nint main() { int x = 0; launch(&x); return x != 1; }\n"
GPU_MAIN = "void launch(int *p);\nint main() { launch(nullptr); return 0; }\n"

OPTION = """\
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
option(USE_HIP "Build the HIP backend" OFF)
if(USE_HIP)
  enable_language(HIP)
  find_package(hip REQUIRED)
  add_executable(app main.cpp kernel.hip)
  target_link_libraries(app PRIVATE hip::host)
else()
  add_executable(app main.cpp serial.cpp)
endif()
"""
MODEL = """\
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
set(MODEL "" CACHE STRING "the backend: hip or serial")
if(NOT MODEL)
  message(FATAL_ERROR "MODEL is unspecified: pass -DMODEL=hip or -DMODEL=serial")
endif()
if(MODEL STREQUAL "hip")
  enable_language(HIP)
  add_executable(app main.cpp kernel.hip)
else()
  add_executable(app main.cpp serial.cpp)
endif()
"""
MAKEFILE = """\
HIPCC ?= hipcc
GPU ?= 0
ifeq ($(GPU),1)
app: main.o kernel.o
\t@$(HIPCC) $^ -o $@
kernel.o: kernel.hip
\t@$(HIPCC) -c $< -o $@
else
app: main.o serial.o
\t@$(CXX) $^ -o $@
endif
main.o: main.cpp
\t@$(CXX) -c $< -o $@
serial.o: serial.cpp
\t@$(CXX) -c $< -o $@
"""


@pytest.fixture
def rocm64(monkeypatch) -> HipOracle:
    oracle = require_hip_oracle("rocm-6.4")
    for name in ("HIPCC", "ROCM_PATH", "HIP_PLATFORM", "MAKEFLAGS", "MAKELEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))
    return oracle


def sources(root, build_file: str, text: str):
    return tree(root, {build_file: text, "main.cpp": MAIN, "serial.cpp": SERIAL,
                       "kernel.hip": KERNEL})


def test_a_cmake_cpu_default_is_not_green_and_the_option_builds(tmp_path, rocm64):
    src = sources(tmp_path / "p", "CMakeLists.txt", OPTION)
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc)
    assert code == 1, text
    found = finding(data, "HP660")
    assert found["location"] == {"path": str(src / "CMakeLists.txt"), "line": 4, "column": 0}
    assert "the GPU code is behind if(USE_HIP), false with the default options: configure " \
           "with -DUSE_HIP=ON" in found["message"]
    (project,) = data["projects"]
    assert (project["ok"], project["gpu_sources"]) == (False, 0)
    assert text.splitlines()[-1].startswith("0 of 1 project build (CMake) with hipcc (HIP 6.4")

    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc, "-D", "USE_HIP=ON")
    assert code == 0, text
    (project,) = data["projects"]
    assert (project["ok"], project["gpu_sources"]) == (True, 1)
    assert data["configure"] == {"cmake": ["USE_HIP=ON"], "make": []}


def test_a_project_that_needs_a_model_builds_with_it(tmp_path, rocm64):
    src = sources(tmp_path / "p", "CMakeLists.txt", MODEL)
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc)
    assert code == 1
    assert "MODEL is unspecified" in finding(data, "HP657")["message"]
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc, "-DMODEL=hip")
    assert code == 0, text
    assert data["projects"][0]["gpu_sources"] == 1
    serial = verify(src, "--hipcc", rocm64.hipcc, "-DMODEL=serial")[1]
    assert "false with the options given: configure with -DMODEL=hip" in \
        finding(serial, "HP660")["message"]


def test_a_make_cpu_default_is_not_green_and_the_variable_builds(tmp_path, rocm64):
    src = sources(tmp_path / "m", "Makefile", MAKEFILE)
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc)
    assert code == 1, text
    assert "(--make-var NAME=VALUE)" in finding(data, "HP660")["message"]
    # the recipes are silent (@): make --trace shows the hipcc commands all the same
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc, "--make-var", "GPU=1")
    assert code == 0, text
    assert data["projects"][0]["gpu_sources"] == 1


def test_units_follow_the_branches_the_configure_takes(tmp_path, rocm64):
    """A definition of a disabled branch (-DUSE_MPI, option off) made the
    unit include a header this machine lacks: a false error."""
    lists = ("cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n"
             "option(USE_MPI \"MPI\" OFF)\nif(USE_MPI)\n  add_definitions(-DUSE_MPI)\nendif()\n"
             "add_executable(app kernel.hip)\n")
    kernel = "#ifdef USE_MPI\n#include <mpi_that_is_not_here.h>\n#endif\n" + KERNEL + \
             "int main() { return 0; }\n"
    src = tree(tmp_path / "u", {"CMakeLists.txt": lists, "kernel.hip": kernel})
    code, data, text = verify(src, "--units", "--strict", "--hipcc", rocm64.hipcc)
    assert code == 0, text
    code, data, text = verify(src, "--units", "--hipcc", rocm64.hipcc, "-D", "USE_MPI=ON")
    assert "mpi_that_is_not_here.h" in data["findings"][0]["message"]


CUDA_LISTS = """\
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
option(USE_CUDA "Build the CUDA backend" OFF)
if(USE_CUDA)
  enable_language(CUDA)
  add_executable(app main.cpp kernel.cu)
else()
  add_executable(app main.cpp serial.cpp)
endif()
"""
CUDA_KERNEL = "#include <cuda_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n" \
              "void launch(int *p) { k<<<1, 1>>>(p); }\n"


def test_convert_and_report_verify_take_the_option(tmp_path, rocm64, monkeypatch):
    """`convert --verify` and `report --verify` of a CUDA project whose GPU
    backend is off by default: HP660 without the option, green with it."""
    monkeypatch.setenv("HIPCC", rocm64.hipcc)  # report --verify has no --hipcc
    src = tree(tmp_path / "cuda", {"CMakeLists.txt": CUDA_LISTS, "main.cpp": MAIN,
                                   "serial.cpp": SERIAL, "kernel.cu": CUDA_KERNEL})
    runner = CliRunner()
    default = runner.invoke(cli, ["convert", str(src), "-o", str(tmp_path / "a"), "--verify",
                                  "--strict"], catch_exceptions=False)
    assert default.exit_code == 1, default.output
    assert "HP660 error: the build compiled no HIP source" in default.stderr
    assert "behind if(USE_CUDA), false with the default options: configure with " \
           "-DUSE_CUDA=ON" in default.stderr
    given = runner.invoke(cli, ["convert", str(src), "-o", str(tmp_path / "b"), "--verify",
                                "--strict", "-q", "-D", "USE_CUDA=ON"], catch_exceptions=False)
    assert given.exit_code == 0, given.output
    assert "1 of 1 project builds (CMake)" in given.stderr

    def billed(*args: str) -> list[dict]:
        result = runner.invoke(cli, ["report", str(src), "--verify", "-f", "json", "-q",
                                     *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        effort = json.loads(result.stdout)["effort"]
        assert effort["basis"] == "built", effort
        return [line for line in effort["lines"] if line["item"].startswith("build error")]

    (line,) = billed()
    assert line["stage"] == "configure" and "compiled no HIP source" in line["item"]
    assert billed("-D", "USE_CUDA=ON") == []


CODE_OBJECT = """\
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
find_package(hip REQUIRED)
add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/kernel.co
  COMMAND ${hip_BIN_INSTALL_DIR}/hipcc --genco --offload-arch=gfx90a
          ${CMAKE_CURRENT_SOURCE_DIR}/kernel.hip -o ${CMAKE_CURRENT_BINARY_DIR}/kernel.co
  DEPENDS kernel.hip)
add_custom_target(kernels ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/kernel.co)
add_executable(app main.cpp serial.cpp)
"""


def test_a_code_object_built_by_a_custom_command_is_gpu_code(tmp_path, rocm64):
    """Host code in C++ and the kernels a code object hipcc --genco makes
    (a driver-API program, issue 32 §2): no HIP compile group, GPU code all
    the same."""
    src = sources(tmp_path / "co", "CMakeLists.txt", CODE_OBJECT)
    code, data, text = verify(src, "--strict", "--hipcc", rocm64.hipcc)
    assert code == 0, text
    assert data["projects"][0]["gpu_sources"] == 1
