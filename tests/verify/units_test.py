"""Which files are translation units, and the flags their build files or
compile_commands.json give them; converted lines mapped to the original."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.buildfiles.cmake.compile_flags import cmake_flags
from hipport.buildfiles.make.compile_flags import make_flags
from hipport.errors import UsageError
from hipport.verify.buildflags import tree_flags
from hipport.verify.lines import map_line
from hipport.verify.units import find_units


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_units_are_hip_and_cu_files_and_cpp_that_include_hip(tmp_path):
    write(tmp_path, {
        "a.hip": "", "b.cu": "", "k.cuh": "", "h.h": "#include <hip/hip_runtime.h>\n",
        "host.cpp": "#include <vector>\n", "dev.cpp": "  #  include <hip/hip_runtime.h>\n",
        "quoted.cc": '#include "hip/hip_runtime.h"\n', "comment.cpp": "// #include <hip/x.h>\n",
        ".git/x.cu": "", "build/CMakeFiles/y.cu": "", "sub/c.cu": "",
    })
    names = [u.path.relative_to(tmp_path).as_posix() for u in find_units([tmp_path])]
    assert names == ["a.hip", "b.cu", "dev.cpp", "quoted.cc", "sub/c.cu"]


def test_a_file_named_alone_is_a_unit(tmp_path):
    write(tmp_path, {"a.cu": ""})
    assert [u.path for u in find_units([tmp_path / "a.cu"])] == [(tmp_path / "a.cu").resolve()]


def test_cmake_include_directories_and_definitions(tmp_path):
    write(tmp_path, {"CMakeLists.txt": """
set(COMMON ${CMAKE_CURRENT_SOURCE_DIR}/common)
include_directories(SYSTEM inc "${COMMON}/include")
target_include_directories(app PRIVATE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/gen>
                           PUBLIC $<INSTALL_INTERFACE:include> ${UNKNOWN_VAR}/x)
add_definitions(-DUSE_HIP -DLEVEL=2 -O2)
add_compile_definitions(FAST)
target_compile_definitions(app PRIVATE -DWIDTH=4 HEIGHT=8)
set(CMAKE_HIP_STANDARD 20)
"""})
    flags = cmake_flags(tmp_path / "CMakeLists.txt", tmp_path)
    assert flags == ["-I", str(tmp_path / "inc"), "-I", str(tmp_path / "common" / "include"),
                     "-I", str(tmp_path / "gen"), "-DUSE_HIP", "-DLEVEL=2", "-DFAST",
                     "-DWIDTH=4", "-DHEIGHT=8", "-std=c++20"]


def test_cmake_that_does_not_lex_gives_no_flags(tmp_path):
    write(tmp_path, {"CMakeLists.txt": "include_directories(inc\n"})
    assert cmake_flags(tmp_path / "CMakeLists.txt", tmp_path) == []


def test_makefile_flags_from_variables_and_recipes(tmp_path):
    write(tmp_path, {"Makefile": """\
ROCM_PATH := $(shell hipconfig --rocmpath)
COMMON ?= ../common
INCLUDES = -I$(COMMON)/inc -I include -isystem /opt/x
CPPFLAGS += -I$(ROCM_PATH)/include -DUSE_X
HIPCCFLAGS := -O2 -std=c++20 --offload-arch=gfx90a
DEFS = -DDIR='"$(COMMON)"' -DTWO="a b" -DTHREE=3
# -Icommented
app.o: app.cu
\t$(HIPCC) $(HIPCCFLAGS) -I./local -DRECIPE=1 -c $< -o $@
"""})
    assert make_flags(tmp_path / "Makefile") == [
        "-I", str(tmp_path.parent / "common" / "inc"), "-I", str(tmp_path / "include"),
        "-isystem", "/opt/x", "-DUSE_X", "-std=c++20", '-DDIR="../common"', "-DTHREE=3",
        "-I", str(tmp_path / "local"),
        "-DRECIPE=1"]


def test_flags_of_the_folders_above_come_first(tmp_path):
    write(tmp_path, {"CMakeLists.txt": "include_directories(top)\n",
                     "sub/Makefile": "CPPFLAGS = -I../shared -DSUB\n", "sub/k.cu": ""})
    assert tree_flags(tmp_path / "sub" / "k.cu", tmp_path) == [
        "-I", str(tmp_path / "top"), "-I", str(tmp_path / "shared"), "-DSUB"]


def test_units_take_their_build_file_flags(tmp_path):
    write(tmp_path, {"CMakeLists.txt": "include_directories(inc)\n", "k.cu": "",
                     "other/o.cu": ""})
    units = {u.path.name: u for u in find_units([tmp_path])}
    assert units["k.cu"].flags == ("-I", str(tmp_path / "inc"))
    assert units["k.cu"].flags_from == "build files"
    assert units["o.cu"].flags == ("-I", str(tmp_path / "inc"))


def test_compile_commands_define_the_units_and_follow_the_tree(tmp_path):
    cuda, hip, toolkit = tmp_path / "cuda", tmp_path / "hip", tmp_path / "toolkit"
    write(toolkit, {"cuda_runtime_api.h": ""})  # CUDA's own headers are left out
    write(hip, {"src/a.cu": "", "src/b.cu": "", "src/not_listed.cu": "", "inc/h.h": "",
                "src/plain.c": ""})
    entries = [
        {"directory": str(cuda / "build"), "file": str(cuda / "src" / "a.cu"),
         "command": f"nvcc -I{cuda}/inc -I{toolkit} -I/opt/x -DA=1 -std=c++14 -c a.cu"},
        {"directory": str(cuda / "build"), "file": "../src/b.cu",
         "arguments": ["nvcc", "--define-macro=B", "-c", "../src/b.cu"]},
        {"directory": str(cuda / "build"), "file": "../src/plain.c",
         "arguments": ["gcc", "-c", "../src/plain.c"]},
        {"directory": str(cuda / "build"), "file": "../src/gone.cu",
         "arguments": ["nvcc", "-c", "../src/gone.cu"]},
    ]
    (hip / "build").mkdir()
    (hip / "build" / "compile_commands.json").write_text(json.dumps(entries))
    units = find_units([hip])
    assert [u.path.relative_to(hip).as_posix() for u in units] == ["src/a.cu", "src/b.cu"]
    assert units[0].flags == ("-I", str(hip / "inc"), "-I", "/opt/x",
                              "-D", "A=1", "-std=c++14")
    assert units[1].flags == ("-D", "B") and units[1].flags_from == "compile_commands.json"


@pytest.mark.parametrize("old, new, line, expected", [
    pytest.param([b"a", b"cudaX()", b"c"], [b"a", b"hipX()", b"c"], 2, 2, id="renamed-line"),
    pytest.param([b"#include <cuda.h>", b"k"], [b"#include <hip/hip_runtime.h>",
                 b"#include <x>", b"k"], 3, 2, id="after-an-added-line"),
    pytest.param([b"a", b"b"], [b"a", b"new", b"b"], 2, None, id="added-line"),
    pytest.param([b"a"], [b"a"], 5, None, id="past-the-end"),
])
def test_converted_line_to_original_line(old, new, line, expected):
    assert map_line(old, new, line) == expected


def test_a_database_of_another_tree_is_an_error(tmp_path):
    write(tmp_path, {"hip/a.cu": "", "hip/compile_commands.json": json.dumps([
        {"directory": "/elsewhere", "file": "/elsewhere/b.cu", "arguments": ["nvcc", "b.cu"]}])})
    with pytest.raises(UsageError, match="lists 1 file, none of them a HIP translation unit"):
        find_units([tmp_path / "hip"])


def test_cpp_that_reaches_a_hip_header_through_the_tree_s_headers(tmp_path):
    """Issue 26: main.cpp including "helper.h" (in ../common, an include folder
    of the build) that includes hip_runtime.h was no unit, so --units said
    green where the build compiles it as C++ and fails."""
    write(tmp_path, {
        "CMakeLists.txt": "project(p LANGUAGES CXX HIP)\nadd_subdirectory(app)\n",
        "app/CMakeLists.txt": "add_executable(app main.cpp)\n"
                              "target_include_directories(app PRIVATE ../common)\n",
        "app/main.cpp": '#include "helper.h"\nint main() {}\n',
        "app/local.cpp": '#include "local.h"\n', "app/local.h": '#include "cycle.h"\n',
        "app/cycle.h": '#include "local.h"\n#include <vector>\n',
        "common/helper.h": "#pragma once\n#include <hip/hip_runtime.h>\n",
        "tool.cpp": '#include "common/helper.h"\n'})
    units = {u.path.relative_to(tmp_path).as_posix(): u for u in find_units([tmp_path])}
    assert sorted(units) == ["app/main.cpp", "tool.cpp"]
    assert units["app/main.cpp"].language == "c++"  # as the build compiles it
