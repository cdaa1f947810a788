"""The branches a configure takes, read without CMake: if() evaluated with
the user's -D values, option() defaults and set() (issue 32 §15: --units
turned on a definition of a disabled branch and reported false errors)."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.buildfiles.cmake.compile_flags import cmake_flags
from hipport.buildfiles.cmake.conditions import evaluate, gpu_switches, taken
from hipport.buildfiles.cmake.languages import cmake_compiled
from hipport.buildfiles.cmake.tokens import lex_cmake
from hipport.buildfiles.languages import Compiled


def condition(text: str, values: dict[str, str]) -> bool | None:
    (command,) = lex_cmake(f"if({text})\n")
    return evaluate(command.args, values)


@pytest.mark.parametrize("text, values, expected", [
    ("ON", {}, True), ("off", {}, False), ("0", {}, False), ("2", {}, True),
    ("FOO-NOTFOUND", {}, False),
    ("USE_HIP", {"USE_HIP": "ON"}, True), ("USE_HIP", {"USE_HIP": "OFF"}, False),
    ("USE_HIP", {}, None),  # set elsewhere, maybe: unknown
    ("NOT USE_HIP", {"USE_HIP": "OFF"}, True),
    ("MODEL STREQUAL \"hip\"", {"MODEL": "hip"}, True),
    ("MODEL STREQUAL hip", {"MODEL": "cpu"}, False),
    ("${MODEL} STREQUAL \"hip\"", {"MODEL": "hip"}, True),
    ("\"${MODEL}\" STREQUAL \"hip\"", {}, None),
    ("MODEL STREQUAL \"hip\"", {}, None),
    ("USE_HIP AND NOT CPU_ONLY", {"USE_HIP": "ON", "CPU_ONLY": "OFF"}, True),
    ("USE_HIP AND UNKNOWN", {"USE_HIP": "OFF"}, False),  # false whatever UNKNOWN is
    ("USE_HIP OR UNKNOWN", {"USE_HIP": "ON"}, True),
    ("USE_HIP OR UNKNOWN", {"USE_HIP": "OFF"}, None),
    ("(A OR B) AND C", {"A": "OFF", "B": "ON", "C": "1"}, True),
    ("DEFINED MODEL", {"MODEL": ""}, True),
    ("EXISTS /etc", {}, None), ("TARGET hip::host", {}, None),
    ("CMAKE_VERSION VERSION_LESS 3.21", {"CMAKE_VERSION": "3.25"}, None),
    ("N EQUAL 3", {"N": "3"}, True), ("N LESS 2", {"N": "3"}, False),
    ("\"some text\"", {}, False),
])
def test_conditions(text, values, expected):
    assert condition(text, values) is expected


LISTS = """\
cmake_minimum_required(VERSION 3.21)
option(USE_HIP "Build the HIP backend" OFF)
set(MODEL "cpu" CACHE STRING "the backend")
project(p LANGUAGES CXX)
if(USE_HIP)
  enable_language(HIP)
  add_definitions(-DUSE_HIP)
  add_executable(gpu kernel.hip)
elseif(MODEL STREQUAL "omp")
  add_definitions(-DUSE_OPENMP)
else()
  add_definitions(-DUSE_SERIAL)
endif()
if(SOMETHING_FROM_ELSEWHERE)
  add_definitions(-DMAYBE)
endif()
add_definitions(-DALWAYS)
"""


def names(commands) -> list[str]:
    return [" ".join(w.value for w in c.words) for c in commands if c.lname == "add_definitions"]


def test_the_branches_taken_follow_option_defaults_and_given_values():
    commands = lex_cmake(LISTS)
    assert names(taken(commands, {})) == ["-DUSE_SERIAL", "-DMAYBE", "-DALWAYS"]
    assert names(taken(commands, {"USE_HIP": "ON"})) == ["-DUSE_HIP", "-DMAYBE", "-DALWAYS"]
    assert names(taken(commands, {"MODEL": "omp"})) == ["-DUSE_OPENMP", "-DMAYBE", "-DALWAYS"]
    # a -D of its type (cmake -DUSE_HIP:BOOL=ON) is the same variable
    assert names(taken(commands, {"USE_HIP:BOOL": "ON"}))[0] == "-DUSE_HIP"


def test_an_unknown_condition_takes_every_branch_as_before():
    commands = lex_cmake("if(FROM_A_TOOLCHAIN_FILE)\nadd_definitions(-DA)\nelse()\n"
                         "add_definitions(-DB)\nendif()\n")
    assert names(taken(commands, {})) == ["-DA", "-DB"]


def test_a_function_body_is_read_whole_and_sets_nothing_yet():
    commands = lex_cmake('option(A "" OFF)\nfunction(f)\nset(A ON)\nif(A)\n'
                         "add_definitions(-DIN_F)\nendif()\nendfunction()\n"
                         "if(A)\nadd_definitions(-DA)\nendif()\n")
    assert names(taken(commands, {})) == ["-DIN_F"]


def test_set_and_a_forced_cache_entry_win_over_an_option():
    commands = lex_cmake("option(A \"\" OFF)\nset(A ON)\nif(A)\nadd_definitions(-DA)\nendif()\n"
                         "set(B OFF CACHE BOOL \"\" FORCE)\nif(B)\nadd_definitions(-DB)\n"
                         "endif()\n")
    assert names(taken(commands, {"B": "ON"})) == ["-DA"]


def test_units_flags_leave_out_a_disabled_branch(tmp_path):
    """The false errors of issue 32 §15: the HIP branch's definition given to
    every unit of a project configured with its CPU default."""
    (tmp_path / "CMakeLists.txt").write_text(LISTS)
    default = cmake_flags(tmp_path / "CMakeLists.txt", tmp_path)
    assert default == ["-DUSE_SERIAL", "-DMAYBE", "-DALWAYS"]
    given = cmake_flags(tmp_path / "CMakeLists.txt", tmp_path, (("USE_HIP", "ON"),))
    assert given == ["-DUSE_HIP", "-DMAYBE", "-DALWAYS"]


def test_a_subfolder_sees_the_top_files_options(tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(LISTS + "add_subdirectory(sub)\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "CMakeLists.txt").write_text(
        "if(USE_HIP)\nadd_compile_definitions(SUB_HIP)\nendif()\n"
        "if(NOT USE_HIP)\nadd_compile_definitions(SUB_CPU)\nendif()\n")
    sub = tmp_path / "sub" / "CMakeLists.txt"
    assert cmake_flags(sub, tmp_path) == ["-DSUB_CPU"]
    assert cmake_flags(sub, tmp_path, (("USE_HIP", "1"),)) == ["-DSUB_HIP"]


def test_languages_follow_the_branches(tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(
        "option(GPU \"\" OFF)\nadd_executable(app main.cpp)\nif(GPU)\n"
        "set_source_files_properties(main.cpp PROPERTIES LANGUAGE HIP)\nendif()\n")
    main = tmp_path / "main.cpp"
    assert cmake_compiled(tmp_path / "CMakeLists.txt", tmp_path)[main] is Compiled.CXX
    assert cmake_compiled(tmp_path / "CMakeLists.txt", tmp_path,
                          (("GPU", "ON"),))[main] is Compiled.HIP


def test_gpu_switches_name_the_conditions_around_hip_code(tmp_path):
    path = tmp_path / "CMakeLists.txt"
    path.write_text(LISTS)
    (switch,) = gpu_switches([path], {})
    assert (switch.path, switch.line, switch.condition, switch.turn_on) == \
        (path, 5, "USE_HIP", "-DUSE_HIP=ON")
    # on: nothing hides it; its option is named, as a place to look
    assert [(s.condition, s.turn_on, s.default) for s in gpu_switches([path], {"USE_HIP": "ON"})
            ] == [("USE_HIP", "", "ON"), ("MODEL", "", "cpu")]


@pytest.mark.parametrize("text, condition, turn_on", [
    ('set(MODEL "" CACHE STRING "")\nif(MODEL STREQUAL "hip")\nenable_language(HIP)\nendif()\n',
     'MODEL STREQUAL "hip"', "-DMODEL=hip"),
    ('option(CPU_ONLY "" ON)\nif(CPU_ONLY)\nadd_executable(a a.cpp)\nelse()\n'
     'add_executable(a a.cpp k.cu)\nendif()\n', "NOT CPU_ONLY", "-DCPU_ONLY=OFF"),
    ('option(A "" OFF)\noption(B "" OFF)\nif(A AND B)\nproject(p LANGUAGES HIP)\nendif()\n',
     "A AND B", ""),
])
def test_gpu_switches_and_what_turns_them_on(tmp_path, text, condition, turn_on):
    path = tmp_path / "CMakeLists.txt"
    path.write_text(text)
    (switch,) = gpu_switches([path], {})
    assert (switch.condition, switch.turn_on) == (condition, turn_on)


def test_a_switch_around_a_folder_of_gpu_sources(tmp_path):
    path = tmp_path / "CMakeLists.txt"
    path.write_text('option(WITH_HIP "" OFF)\nif(WITH_HIP)\nadd_subdirectory(hip)\nendif()\n'
                    'if(WITH_DOCS)\nadd_subdirectory(docs)\nendif()\n')
    (tmp_path / "hip" / "src").mkdir(parents=True)
    (tmp_path / "hip" / "src" / "k.hip").write_text("")
    (tmp_path / "docs").mkdir()
    assert [(s.condition, s.turn_on) for s in gpu_switches([path], {})] == \
        [("WITH_HIP", "-DWITH_HIP=ON")]


def test_no_switch_around_cpu_code_or_an_unknown_condition(tmp_path):
    path = tmp_path / "CMakeLists.txt"
    path.write_text('option(FAST "" OFF)\nif(FAST)\nadd_executable(a a.cpp)\nendif()\n'
                    "if(FROM_ELSEWHERE)\nenable_language(HIP)\nendif()\n")
    assert gpu_switches([path], {}) == []


def test_without_a_known_switch_the_gpu_options_are_named(tmp_path):
    path = tmp_path / "CMakeLists.txt"
    path.write_text('option(ENABLE_TESTS "tests" ON)\noption(ENABLE_GPU "use the GPU" OFF)\n'
                    'set(BACKEND "" CACHE STRING "serial or hip")\n'
                    'set(PREFIX "/opt" CACHE PATH "where")\n'
                    "if(CMAKE_HIP_COMPILER OR ENABLE_GPU)\nenable_language(HIP)\nendif()\n")
    assert [(s.condition, s.line, s.default) for s in gpu_switches([path], {})] == \
        [("ENABLE_GPU", 2, "OFF"), ("BACKEND", 3, "")]
    given = gpu_switches([path], {"BACKEND": "serial"})
    assert [(s.condition, s.default) for s in given] == [("ENABLE_GPU", "OFF"),
                                                          ("BACKEND", "serial")]


def test_a_file_that_does_not_lex_has_no_switch(tmp_path: Path):
    path = tmp_path / "CMakeLists.txt"
    path.write_text("if(A\n")
    assert gpu_switches([path], {}) == []
