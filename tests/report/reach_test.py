"""Which files the build reaches (hipport.report.reach): the targets'
sources and the local headers they include, through the including file's
folder and the target's include directories."""
from __future__ import annotations

from pathlib import Path

from hipport.report.reach import build_reach
from tests.trees import write_tree


def reached(root: Path) -> list[str] | None:
    reach = build_reach([root])
    if reach.built is None:
        return None
    return sorted(p.relative_to(root.resolve()).as_posix() for p in reach.built)


SAMPLE = {
    # A program and the shared helper folder of its repository: it includes one
    # helper, which includes another; the third helper is for other programs.
    "app/CMakeLists.txt": "include_directories(${CMAKE_SOURCE_DIR}/../utils)\n"
                          "add_executable(app main.cu)\n",
    "app/main.cu": '#include "local.h"\n#include <helper.h>\n#include <vector>\n',
    "app/local.h": "",
    "app/stray.cu": "// built by nothing\n",
    "utils/helper.h": '#include "detail.h"\n',
    "utils/detail.h": "",
    "utils/gl_helper.h": "#include <GL/gl.h>\n",
}


def test_targets_and_their_include_closure(tmp_path):
    root = write_tree(tmp_path, SAMPLE)
    assert reached(root) == ["app/CMakeLists.txt", "app/local.h", "app/main.cu",
                             "utils/detail.h", "utils/helper.h"]
    reach = build_reach([root])
    assert reach.targets == 1
    assert "1 target of 1 build file (CMake)" in reach.basis


def test_angle_brackets_are_not_looked_up_beside_the_includer(tmp_path):
    root = write_tree(tmp_path, {"Makefile": "all: main.o\n\tnvcc main.o\n",
                            "main.cu": "#include <near.h>\n", "near.h": ""})
    assert reached(root) == ["Makefile", "main.cu"]


def test_without_build_files_every_file_counts(tmp_path):
    root = write_tree(tmp_path, {"a.cu": "", "b.cuh": ""})
    reach = build_reach([root])
    assert reach.built is None and reach.reaches(root / "a.cu")
    assert "covers every file" in reach.basis


def test_build_files_with_no_target_hipport_can_read_leave_every_source_counted(tmp_path):
    """Two build files whose only target a package's function makes: the
    report billed the CUDA file, and its nvml.h blocker, nothing ("0
    targets of 2 build files", issue 32 §16); its sources count now."""
    root = write_tree(tmp_path, {
        "CMakeLists.txt": "find_package(pybind11 REQUIRED)\nadd_subdirectory(src)\n",
        "src/CMakeLists.txt": "pybind11_add_module(monitor monitor.cu)\n",
        "src/monitor.cu": "#include <nvml.h>\n", "src/util.cuh": "", "README.md": ""})
    reach = build_reach([root])
    assert reach.built is None and reach.reaches((root / "src/monitor.cu").resolve())
    assert reach.basis == ("no target could be read from 2 build files (CMake), so every "
                           "source counts (2 CUDA files)")


def test_a_build_file_with_a_target_keeps_the_reach_of_its_targets(tmp_path):
    """The look-alike: one target read is enough to bill what it reaches."""
    root = write_tree(tmp_path, {
        "CMakeLists.txt": "add_subdirectory(src)\nadd_executable(app main.cu)\n",
        "src/CMakeLists.txt": "pybind11_add_module(monitor monitor.cu)\n",
        "main.cu": "", "src/monitor.cu": ""})
    assert reached(root) == ["CMakeLists.txt", "main.cu", "src/CMakeLists.txt"]


def test_a_build_file_hipport_cannot_read_whole_takes_its_folder(tmp_path):
    root = write_tree(tmp_path, {"tool/Makefile": "all:\n\t./configure && $(MAKE)\n",
                            "tool/src/x.cu": "", "other/y.cu": "",
                            "app/Makefile": "all: app.o\n", "app/app.cu": ""})
    assert reached(root) == ["app/Makefile", "app/app.cu", "tool/Makefile", "tool/src/x.cu"]


def test_a_compile_database_names_the_units(tmp_path):
    root = write_tree(tmp_path, {"src/a.cu": '#include "a.h"\n', "src/a.h": "", "src/b.cu": "",
                            "CMakeLists.txt": "add_executable(x src/a.cu src/b.cu)\n"})
    (root / "compile_commands.json").write_text(
        f'[{{"directory": "{root}", "file": "src/a.cu", "command": "nvcc -c src/a.cu"}}]')
    assert reached(root) == ["src/a.cu", "src/a.h"]
    assert build_reach([root]).basis == "1 unit of compile_commands.json"


def test_a_file_named_on_its_own_always_counts(tmp_path):
    root = write_tree(tmp_path, SAMPLE)
    stray = (root / "app" / "stray.cu").resolve()
    assert build_reach([stray]).reaches(stray)
    both = build_reach([root, stray])
    assert both.built is not None and stray in both.built
    assert not build_reach([root]).reaches(stray)


def test_a_build_file_that_cannot_be_read_takes_its_folder(tmp_path):
    """Billing nothing because hipport could not read the build file would
    hide the work: its folder counts whole."""
    root = write_tree(tmp_path, {"app/CMakeLists.txt": "add_executable(app main.cu\n",
                                 "app/main.cu": "", "app/src/k.cu": "", "other/x.cu": "",
                                 "lib/Makefile": "all: lib.o\n", "lib/lib.cu": ""})
    assert reached(root) == ["app/CMakeLists.txt", "app/main.cu", "app/src/k.cu",
                             "lib/Makefile", "lib/lib.cu"]
