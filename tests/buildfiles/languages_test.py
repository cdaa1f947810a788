"""How the build files compile each C++ source (hipport.buildfiles.languages):
as C++ without the HIP platform, with it (hip::host), or as HIP; what
`hipport verify --units` gives the source so that it compiles as the build
compiles it."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.buildfiles.cmake.languages import cmake_compiled
from hipport.buildfiles.languages import Compiled
from hipport.buildfiles.make.languages import make_compiled

HEAD = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n" \
       "find_package(hip REQUIRED)\n"


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def cmake(tmp_path: Path, body: str) -> dict[str, Compiled]:
    write(tmp_path, {"CMakeLists.txt": HEAD + body})
    found = cmake_compiled(tmp_path / "CMakeLists.txt", tmp_path)
    return {p.relative_to(tmp_path).as_posix(): c for p, c in found.items()}


@pytest.mark.parametrize("body, expected", [
    pytest.param("add_executable(app main.cpp k.hip)\n", Compiled.CXX, id="cxx-alone"),
    pytest.param("add_executable(app main.cpp)\n"
                 "target_include_directories(app PRIVATE ${hip_INCLUDE_DIRS})\n",
                 Compiled.CXX, id="hip-include-dirs-give-no-platform"),
    pytest.param("add_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE hip::host)\n",
                 Compiled.CXX_WITH_PLATFORM, id="hip-host"),
    pytest.param("add_executable(app main.cpp)\ntarget_link_libraries(app hip::amdhip64)\n",
                 Compiled.CXX, id="amdhip64-gives-no-platform"),
    pytest.param("add_executable(app main.cpp)\ntarget_link_libraries(app PUBLIC roc::hipblas)\n",
                 Compiled.CXX_WITH_PLATFORM, id="rocm-library-links-hip-host"),
    pytest.param("add_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE hip::device)\n",
                 Compiled.HIP, id="hip-device"),
    pytest.param("add_executable(app main.cpp)\ntarget_link_libraries(app INTERFACE hip::host)\n",
                 Compiled.CXX, id="interface-is-for-dependents"),
    pytest.param("set(SRC main.cpp)\nadd_executable(app ${SRC})\n"
                 "set_source_files_properties(${SRC} PROPERTIES LANGUAGE HIP)\n",
                 Compiled.HIP, id="language-hip"),
    pytest.param("add_executable(app main.cpp)\n"
                 "set_property(SOURCE main.cpp PROPERTY LANGUAGE HIP)\n",
                 Compiled.HIP, id="set-property-language-hip"),
    pytest.param("link_libraries(hip::host)\nadd_executable(app main.cpp)\n",
                 Compiled.CXX_WITH_PLATFORM, id="link-libraries-before"),
    pytest.param("add_executable(app main.cpp)\nlink_libraries(hip::host)\n",
                 Compiled.CXX, id="link-libraries-after"),
    pytest.param("add_library(common INTERFACE)\n"
                 "target_link_libraries(common INTERFACE hip::host)\n"
                 "add_executable(app)\ntarget_sources(app PRIVATE main.cpp)\n"
                 "target_link_libraries(app PRIVATE common)\n",
                 Compiled.CXX_WITH_PLATFORM, id="through-a-project-target"),
    pytest.param("add_library(common STATIC k.hip)\n"
                 "target_link_libraries(common PRIVATE hip::host)\n"
                 "add_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE common)\n",
                 Compiled.CXX, id="private-is-not-passed-on"),
    pytest.param("add_executable(a main.cpp)\ntarget_link_libraries(a PRIVATE hip::host)\n"
                 "add_executable(b main.cpp)\n",
                 Compiled.CXX, id="two-targets-the-lower"),
    pytest.param("set(CMAKE_CXX_COMPILER /opt/rocm/bin/hipcc)\nadd_executable(app main.cpp)\n",
                 Compiled.HIP, id="cxx-compiler-hipcc"),
])
def test_cmake(tmp_path, body, expected):
    assert cmake(tmp_path, body)["main.cpp"] is expected


def test_cmake_names_only_the_cxx_sources_it_compiles(tmp_path):
    found = cmake(tmp_path, "add_executable(app src/main.cpp k.cu h.hpp)\n"
                            "add_executable(gen $<IF:$<CONFIG:Debug>,d.cpp,r.cpp>)\n")
    assert found == {"src/main.cpp": Compiled.CXX}


def test_cmake_that_does_not_lex_names_nothing(tmp_path):
    write(tmp_path, {"CMakeLists.txt": "add_executable(app main.cpp\n"})
    assert cmake_compiled(tmp_path / "CMakeLists.txt", tmp_path) == {}


def make(tmp_path: Path, text: str, sources: tuple[str, ...] = ("main.cpp",)
         ) -> dict[str, Compiled]:
    write(tmp_path, {"Makefile": text, **{s: "" for s in sources}})
    found = make_compiled(tmp_path / "Makefile")
    return {p.relative_to(tmp_path).as_posix(): c for p, c in found.items()}


@pytest.mark.parametrize("text, expected", [
    pytest.param("main.o: main.cpp\n\t$(CXX) -c $< -o $@\n", Compiled.CXX, id="cxx"),
    pytest.param("main.o: main.cpp\n\tg++ -D__HIP_PLATFORM_AMD__ -c $< -o $@\n",
                 Compiled.CXX_WITH_PLATFORM, id="cxx-with-platform"),
    pytest.param("DEFS = -D__HIP_PLATFORM_AMD__\nmain.o: main.cpp\n\t@$(CXX) $(DEFS) -c $<\n",
                 Compiled.CXX_WITH_PLATFORM, id="platform-in-a-variable"),
    pytest.param("HIPCC ?= hipcc\nmain.o: main.cpp\n\t$(HIPCC) -c $< -o $@\n",
                 Compiled.HIP, id="hipcc"),
    pytest.param("main.o: main.cpp\n\t$(HIPCC) -c $< -o $@\n", Compiled.HIP,
                 id="hipcc-from-the-environment"),
    pytest.param("ROCM_PATH ?= /opt/rocm\nCXX = $(ROCM_PATH)/bin/hipcc\n"
                 "main.o: main.cpp\n\t$(CXX) -c $<\n", Compiled.HIP, id="cxx-is-hipcc"),
    pytest.param("%.o: %.cpp\n\t$(CXX) -c $< -o $@\napp: main.o\n\t$(HIPCC) $^ -o $@\n",
                 Compiled.CXX, id="pattern-rule"),
    pytest.param("OBJS = main.o\n$(OBJS): %.o: %.cpp\n\thipcc -c $<\n", Compiled.HIP,
                 id="static-pattern-rule"),
    pytest.param(".cpp.o:\n\tclang++ -c $<\n", Compiled.CXX, id="suffix-rule"),
    pytest.param("app: main.o\n\t$(HIPCC) $^ -o $@\n", Compiled.CXX, id="built-in-rule"),
    pytest.param("CXX = hipcc\napp: main.o\n\t$(CXX) $^ -o $@\n", Compiled.HIP,
                 id="built-in-rule-with-hipcc"),
    pytest.param("app: main.cpp\n\thipcc $< -o $@\n", Compiled.HIP, id="compiled-and-linked"),
    pytest.param("main.o: main.cpp\n\tclang++ -x hip -c $<\n", Compiled.HIP,
                 id="clang-x-hip"),
])
def test_make(tmp_path, text, expected):
    assert make(tmp_path, text)["main.cpp"] is expected


def test_make_names_what_it_does_not_build_not(tmp_path):
    found = make(tmp_path, "k.o: k.hip\n\thipcc -c $<\nall: k.o\n\t@echo done\n",
                 ("main.cpp", "k.hip"))
    assert found == {}
