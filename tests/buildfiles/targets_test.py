"""What each build file builds (BuildSystem.targets), read without running
the build: the report's estimate bills only what the targets reach."""
from __future__ import annotations

from pathlib import Path

from hipport.buildfiles import system_named
from tests.trees import write_tree


def targets(root: Path, build_file: str) -> dict[str, tuple[list[str], bool]]:
    path = root / build_file
    system = system_named("cmake" if path.name == "CMakeLists.txt" else "make")
    found = system.targets(path, root)
    assert found is not None
    return {t.name: (sorted(p.relative_to(root.resolve()).as_posix() for p in t.sources),
                     t.complete) for t in found.targets}


def test_cmake_targets_through_functions_includes_and_subdirectories(tmp_path):
    """A sample shaped like NVIDIA's library samples: the target is made by a
    function of an included module, its source passed through a variable."""
    root = write_tree(tmp_path, {
        "cmake/example.cmake": "function(add_example NAME SOURCES)\n"
                               "  add_executable(${NAME} ${SOURCES})\nendfunction()\n",
        "app/CMakeLists.txt": "project(p LANGUAGES CXX CUDA)\nset(ROUTINE amin)\n"
                              "include(../cmake/example.cmake)\n"
                              "include_directories(${CMAKE_SOURCE_DIR}/../utils)\n"
                              "add_example(ex_${ROUTINE} ex_${ROUTINE}.cu)\n"
                              "add_subdirectory(lib)\n",
        "app/ex_amin.cu": "", "app/unused.cu": "",
        "app/lib/CMakeLists.txt": "file(GLOB SRC *.cu)\nlist(APPEND SRC extra.cpp)\n"
                                  "add_library(lib STATIC ${SRC})\n"
                                  "target_sources(lib PRIVATE more.cu)\n",
        "app/lib/a.cu": "", "app/lib/b.cu": "", "app/lib/extra.cpp": "", "app/lib/more.cu": "",
        "utils/u.h": "",
    })
    assert targets(root, "app/CMakeLists.txt") == {
        "ex_amin": (["app/ex_amin.cu"], True),
        "lib": (["app/lib/a.cu", "app/lib/b.cu", "app/lib/extra.cpp", "app/lib/more.cu"], True)}
    found = system_named("cmake").targets(root / "app/CMakeLists.txt", root)
    assert found is not None
    assert [t.include_dirs for t in found.targets][0] == ((root / "utils").resolve(),)
    assert {p.relative_to(root.resolve()).as_posix() for p in found.read} == {
        "app/CMakeLists.txt", "cmake/example.cmake", "app/lib/CMakeLists.txt"}


def test_cmake_aux_source_directory_and_findcuda_commands(tmp_path):
    root = write_tree(tmp_path, {
        "CMakeLists.txt": "aux_source_directory(${PROJECT_SOURCE_DIR}/src SRC)\n"
                          "add_executable(sgemm sgemm.cu ${SRC})\n"
                          "cuda_add_executable(old old.cu OPTIONS -G)\n"
                          "add_library(imported SHARED IMPORTED)\n",
        "sgemm.cu": "", "old.cu": "", "src/runner.cu": "", "src/runner.cuh": "",
    })
    assert targets(root, "CMakeLists.txt") == {"sgemm": (["sgemm.cu", "src/runner.cu"], True),
                                               "old": (["old.cu"], True)}


def test_a_cmake_target_named_by_a_value_only_cmake_computes_builds_its_sources(tmp_path):
    """add_executable(${APP_NAME} monitor.cu) with APP_NAME set outside the
    tree was no target at all, so its source (and its nvml.h blocker) was
    billed nothing (issue 32 §16); an IMPORTED one still builds nothing."""
    root = write_tree(tmp_path, {
        "CMakeLists.txt": "add_executable(${APP_NAME} monitor.cu)\n"
                          "target_sources(${APP_NAME} PRIVATE more.cu)\n"
                          "add_library(${EXTERNAL} SHARED IMPORTED)\n",
        "monitor.cu": "", "more.cu": ""})
    assert targets(root, "CMakeLists.txt") == {"?": (["monitor.cu", "more.cu"], True)}


def test_a_cmake_source_list_only_cmake_computes_is_incomplete(tmp_path):
    root = write_tree(tmp_path, {"CMakeLists.txt": "add_executable(app main.cu ${FROM_OUTSIDE})\n",
                            "main.cu": ""})
    assert targets(root, "CMakeLists.txt") == {"app": (["main.cu"], False)}


def test_makefile_sources_objects_wildcards_and_pattern_stems(tmp_path):
    root = write_tree(tmp_path, {
        "Makefile": "SRC = $(wildcard k*.cu)\nOBJ = $(SRC:.cu=.o) host.o\n"
                    "TARGETS = scan\n%: %.cu\n\tnvcc $< -o $@\n"
                    "all: $(TARGETS) app\napp: $(OBJ)\n\tnvcc $^ -o $@\n"
                    "clean:\n\trm -f *.o\n",
        "k1.cu": "", "k2.cu": "", "host.cpp": "", "scan.cu": "", "never.cu": "",
    })
    assert targets(root, "Makefile") == {
        tmp_path.name: (["host.cpp", "k1.cu", "k2.cu", "scan.cu"], True)}


def test_a_makefile_that_names_no_source_is_incomplete(tmp_path):
    root = write_tree(tmp_path, {"Makefile": "all:\n\tcmake -B build && $(MAKE) -C build\n",
                            "main.cu": ""})
    assert targets(root, "Makefile") == {tmp_path.name: ([], False)}


def test_makefile_include_and_include_paths(tmp_path):
    root = write_tree(tmp_path, {
        "common.mk": "INC = -I../shared\n",
        "app/Makefile": "include ../common.mk\nall: main.o\n\tnvcc $(INC) main.o -o app\n",
        "app/main.cu": "", "shared/s.h": "",
    })
    found = system_named("make").targets(root / "app/Makefile", root)
    assert found is not None
    [target] = found.targets
    assert [p.name for p in target.sources] == ["main.cu"]
    assert target.include_dirs == ((root / "shared").resolve(),)
    assert {p.name for p in found.read} == {"Makefile", "common.mk"}


def test_makefile_words_that_name_no_file(tmp_path):
    # `report` ended with "internal error: PosixPath('/') has an empty name" on a
    # corpus Makefile: with a `%.o: %.cu` rule, every word without a suffix is a
    # possible stem, `/`, `.` and `..` too; a name too long for the file system
    # names no file either.
    long_name = "x" * 300
    root = write_tree(tmp_path, {
        "Makefile": "%.o: %.cu\n\tnvcc -c $< -o $@\n"
                    f"PREFIX = /\nHERE = .\nUP = ..\nLONG = {long_name}\n"
                    "all: main.o\n\tnvcc main.o -o app\n",
        "main.cu": ""})
    found = system_named("make").targets(root / "Makefile", root)
    assert found is not None
    assert [p.name for t in found.targets for p in t.sources] == ["main.cu"]
