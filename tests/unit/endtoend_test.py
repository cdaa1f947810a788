"""benchmarks/endtoend.py: targets, first errors of configure and build logs, digests, summary."""
from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

from benchmarks.endtoend import (
    ORACLE,
    Build,
    Target,
    announced,
    find_targets,
    lld_dir,
    markdown,
    oracle_stamp,
    original_lines,
    parse_build,
    parse_configure,
    rocm_tools,
    target_digest,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_targets_are_top_level_cuda_projects_and_nvcc_makefiles(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    write(repo / "CMakeLists.txt", "project(top LANGUAGES CXX CUDA)\nadd_subdirectory(part)\n")
    write(repo / "part/CMakeLists.txt", "project(part CUDA)\n")           # a part of top
    write(repo / "lone/CMakeLists.txt", "project(lone CXX)\n")            # no CUDA at all
    write(repo / "lib/CMakeLists.txt", "project(lib)\ninclude(cmake/x.cmake)\n")
    write(repo / "lib/cmake/x.cmake", "find_package(CUDAToolkit)\n")      # CUDA in a module
    write(repo / "lib/Makefile", "all:\n\tnvcc x.cu\n")                   # CMake wins here
    write(repo / "mk/Makefile", "NVCC ?= nvcc\nall:\n\t$(NVCC) x.cu\n")
    write(repo / "mk/Makefile_f90", "all:\n\tnvcc x.cu\n")                # not a Makefile name
    write(repo / "acc/Makefile", "all:\n\tpgcc -acc x.c\n")               # no nvcc rule
    got = [(t.path, t.kind) for t in find_targets(tmp_path, None, {})]
    assert got == [("CMakeLists.txt", "cmake"), ("lib/CMakeLists.txt", "cmake"),
                   ("mk/Makefile", "make")]
    assert [t.path for t in find_targets(tmp_path, None, {"r": 2})] == [
        "CMakeLists.txt", "mk/Makefile"]


def test_configure_errors_are_classed_with_their_file_and_line(tmp_path: Path) -> None:
    log = ("-- The HIP compiler identification is Clang 21.1.8\n"
           f"CMake Error at {tmp_path}/cmake/ex.cmake:23 (target_link_libraries):\n"
           "  Target \"ex\" links to:\n\n    roc::hipblas\n\n  but the target was not found.\n"
           "\n-- Generating done\n")
    got = parse_configure(log, [tmp_path])
    assert (got.configured, got.phase, got.error_file, got.error_line, got.error_class,
            got.symbol) == (False, "configure", "cmake/ex.cmake", 23, "cmake: unknown target",
                            "roc::hipblas")
    assert got.first_error.startswith(f"CMake Error at {tmp_path}/cmake/ex.cmake:23")
    assert got.first_error.count("links to:") == 1
    threads = parse_configure(
        "CMake Error at /usr/share/cmake-4.3/Modules/FindThreads.cmake:66 (message):\n"
        "  FindThreads only works if either C or CXX language is enabled\n", [tmp_path])
    assert threads.error_class == "cmake: FindThreads without C/CXX"
    language = parse_configure('CMake Error: Cannot determine link language for target "x".\n'
                               "CMake Error: CMake can not determine linker language for "
                               "target: x\n", [tmp_path])
    assert (language.error_class, language.first_error) == (
        "cmake: no link language", 'CMake Error: Cannot determine link language for target "x".')
    assert parse_configure("nothing useful\n", [tmp_path]).error_class == "other"


def test_a_build_that_fails_only_at_the_link_compiled(tmp_path: Path) -> None:
    link = parse_build("ld.lld: error: undefined symbol: cudaCheck(hipError_t, char const*, int)"
                       "\n>>> referenced by sgemm.cu\nclang++: error: linker command failed\n",
                       [tmp_path], False)
    assert (link.configured, link.compiled, link.built, link.error_class, link.error_file) == (
        True, True, False, "link: undefined symbol", "")
    missing = parse_build("/usr/bin/ld: cannot find -lcublas: No such file or directory\n"
                          "collect2: error: ld returned 1 exit status\n", [tmp_path], False)
    assert (missing.compiled, missing.error_class, missing.symbol) == (
        True, "link: missing library", "cublas:")
    # A compile error wins over a link error printed before it (make -k goes on).
    both = parse_build("/usr/bin/ld: cannot find -lcublas\n"
                       f"{tmp_path}/a/x.hip:7:3: error: use of undeclared identifier "
                       "'__ballot_sync'\n", [tmp_path], False)
    assert (both.compiled, both.error_file, both.error_line, both.error_class, both.symbol) == (
        False, "a/x.hip", 7, "undeclared identifier", "__ballot_sync")
    option = parse_build("clang++: error: unknown argument: '-gencode'\n", [tmp_path], False)
    assert (option.compiled, option.error_class, option.symbol, option.error_file) == (
        False, "unsupported option", "-gencode", "")
    gcc = parse_build(f"{tmp_path}/s/x.c:128:21: error: too few arguments to function "
                      "‘hipsparseSpSM_solve’; expected 11, have 10\n", [tmp_path], False)
    assert (gcc.error_class, gcc.symbol) == ("wrong argument count", "hipsparseSpSM_solve")
    # A linker's or make's own "No such file or directory" is not a missing header.
    output = parse_build("ld.lld: error: cannot open output file bin/reduce_v0: No such file or "
                         "directory\nclang++: error: linker command failed with exit code 1\n",
                         [tmp_path], False)
    assert (output.compiled, output.error_class) == (True, "link: failed")
    tool = parse_build("/opt/rocm/bin/hipcc -o bin/e e.cu\nmake: /opt/rocm/bin/hipcc: No such "
                       "file or directory\nmake: *** [Makefile:2: all] Error 127\n", [tmp_path],
                       False)
    assert (tool.compiled, tool.error_class, tool.symbol) == (False, "missing tool",
                                                              "/opt/rocm/bin/hipcc")
    header = parse_build(f"{tmp_path}/x.cu:3:10: fatal error: 'a.h' file not found\n",
                         [tmp_path], False)
    assert header.error_class == "missing header"  # the look-alike that stays a header
    assert parse_build("", [tmp_path], True).built


def test_digest_follows_the_helpers_a_target_includes(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    write(repo / "a/CMakeLists.txt", "project(a CUDA)\n")
    write(repo / "a/main.cu", '#include "helper.h"\n')
    helper = write(repo / "utils/helper.h", "int x;\n")
    other = write(repo / "b/other.cu", "int y;\n")
    target = Target("r", "a/CMakeLists.txt", "cmake")
    first = target_digest(repo, target, "salt")
    other.write_text("int z;\n")
    assert target_digest(repo, target, "salt") == first
    helper.write_text("int w;\n")
    assert target_digest(repo, target, "salt") != first
    assert target_digest(repo, target, "other salt") != target_digest(repo, target, "salt")


def test_markdown_counts_targets_whose_original_compiles() -> None:
    builds = Build(True, True, True, 1.0)
    link_only = Build(True, True, False, 1.0, "build", "ld: cannot find -lcublas",
                      error_class="link: missing library")
    broken = Build(True, False, False, 1.0, "build", "x.cu:1:1: error: bad", "x.cu", 1,
                   "syntax")
    unknown = Build(False, False, False, 1.0, "configure", "CMake Error at CMakeLists.txt:3 "
                    "(target_link_libraries): links to: roc::hipblas but the target was not "
                    "found", "CMakeLists.txt", 3, "cmake: unknown target", "roc::hipblas")
    targets = [Target("r", "a/CMakeLists.txt", "cmake", {"cuda": builds, ORACLE: builds}),
               Target("r", "b/CMakeLists.txt", "cmake", {"cuda": link_only, ORACLE: unknown}),
               Target("r", "c/Makefile", "make", {"cuda": broken, ORACLE: None})]
    data = {"hipport": "x (abc)", "seconds": 60.0, "targets": [asdict(t) for t in targets]}
    text = markdown(data, None)
    assert "| r | 3 | 3 | 2 | 1 | 1/2 | 1/2 | 1/2 |" in text
    assert "| 1 | cmake: unknown target | r/b/CMakeLists.txt | CMakeLists.txt:3 |" in text
    assert "Originals that do not count (1), by first error: syntax 1" in text
    old = {"hipport": "old", "targets": [asdict(Target("r", "a/CMakeLists.txt", "cmake", {
        "cuda": builds, ORACLE: unknown}))]}
    assert "built 0 → 1; fixed 1, broken 0" in markdown(data, old)


def test_each_rocm_release_has_its_wrappers_and_its_chroots_lld(tmp_path: Path) -> None:
    assert rocm_tools("6.4", tmp_path) == (tmp_path / "bin", tmp_path / "rocm-sid")
    assert rocm_tools("7.2", tmp_path) == (tmp_path / "rocm-7.2/bin", tmp_path / "rocm-7.2/root")
    root = tmp_path / "rocm-7.2/root"
    for version in ("9", "22", "21"):
        write(root / f"usr/lib/llvm-{version}/bin/ld.lld", "")
    write(root / "usr/lib/llvm-23/bin/clang", "")  # an LLVM without lld is not taken
    assert lld_dir(root) == "/usr/lib/llvm-22/bin"
    assert lld_dir(tmp_path / "empty") == "/usr/lib/llvm-21/bin"


def test_markdown_compares_releases_and_names_surprise_failures() -> None:
    builds = Build(True, True, True, 1.0)
    fails = Build(True, False, False, 1.0, "build", "a/x.cu:7:1: error: bad", "a/x.cu", 7,
                  "syntax")
    other = Build(True, False, False, 1.0, "build", "b/y.cu:3:1: error: bad", "b/y.cu", 3,
                  "syntax")
    targets = [Target("r", "a/CMakeLists.txt", "cmake",
                      {"cuda": builds, "rocm-6.4": builds, "rocm-7.2": fails}),
               Target("r", "b/CMakeLists.txt", "cmake",
                      {"cuda": builds, "rocm-6.4": other, "rocm-7.2": builds})]
    blockers = {"rocm-7.2": {"r": [["a/x.cu", 7, "HP900"]]},
                "rocm-6.4": {"r": [["a/x.cu", 7, "HP900"]]}}
    data = {"hipport": "x (abc)", "seconds": 60.0, "rocm": ["rocm-6.4", "rocm-7.2"],
            "blockers": blockers, "targets": [asdict(t) for t in targets]}
    text = markdown(data, None)
    assert "| r | 2 | 2 | 2 | 2 | 2/2 | 1/2 | 1/2 | 2/2 | 1/2 | 1/2 |" in text
    assert ("rocm-7.2 against rocm-6.4: 1 targets build only on rocm-7.2, 1 only on rocm-6.4 "
            "(r/a/CMakeLists.txt)") in text
    assert announced(targets[0], "rocm-7.2", blockers) == "line"
    assert announced(targets[1], "rocm-6.4", blockers) == ""  # the finding is in a/, not b/
    assert announced(targets[1], "rocm-6.4", {}) == "?"
    assert "; **none for 1** (surprises)" in text
    assert "| r/b/CMakeLists.txt | syntax: b/y.cu:3 `b/y.cu:3:1: error: bad` |" in text


def test_an_error_line_of_the_converted_file_maps_to_the_lines_it_came_from() -> None:
    original = "#include <cuda.h>\n#include <cuda_runtime.h>\n#include <cublasXt.h>\nint x;\n"
    converted = "#include <hip/hip_runtime.h>\n#include <cublasXt.h>\nint x;\n"
    assert list(original_lines(original, converted, 2)) == [3]  # unchanged: its twin
    assert list(original_lines(original, converted, 1)) == [1, 2]  # two includes became one
    assert list(original_lines(original, converted, 9)) == []
    inserted = "find_package(hip)\n#include <cuda.h>\n"
    assert list(original_lines("#include <cuda.h>\n", inserted, 1)) == []
    assert list(original_lines("#include <cuda.h>\n", inserted, 2)) == [1]


def test_a_blocker_at_the_original_line_of_a_moved_error_is_at_the_line() -> None:
    fails = Build(True, False, False, 1.0, "build", "x.cu:5:10: fatal error", "x.cu", 5,
                  "missing header")
    target = Target("r", "CMakeLists.txt", "cmake", {"cuda": Build(True, True, True, 1.0),
                                                     "rocm-7.2": fails})
    blockers = {"rocm-7.2": {"r": [["x.cu", 6, "HP901"]]}}
    assert announced(target, "rocm-7.2", blockers) == "target"  # numbers compared as they are
    mapped = {"rocm-7.2": {target.name: [6]}}
    assert announced(target, "rocm-7.2", blockers, mapped) == "line"


def test_a_link_failure_the_original_shares_is_not_a_surprise() -> None:
    link = Build(True, True, False, 1.0, "build", "ld.lld: error: cannot open output file bin/x",
                 error_class="link: failed")
    none: dict[str, dict[str, list[list[object]]]] = {"rocm-7.2": {"r": []}}
    original = Target("r", "Makefile", "make", {"cuda": link, "rocm-7.2": link})
    assert announced(original, "rocm-7.2", none) == "original"
    linked = Target("r", "Makefile", "make", {"cuda": Build(True, True, True, 1.0),
                                              "rocm-7.2": link})
    assert announced(linked, "rocm-7.2", none) == ""  # the conversion's failure
    # A CUDA library this machine lacks failed the original's link: no excuse.
    lacking = Build(True, True, False, 1.0, "build", "ld: cannot find -lcublas",
                    error_class="link: missing library")
    missing = replace(lacking, first_error="ld.lld: error: unable to find library -lcusolverMg")
    assert announced(Target("r", "Makefile", "make", {"cuda": lacking, "rocm-7.2": missing}),
                     "rocm-7.2", none) == ""


def test_a_rebuilt_oracle_is_another_side_for_the_cache(tmp_path: Path) -> None:
    assert oracle_stamp(tmp_path) == ""  # no stamp: the versions alone
    write(tmp_path / ".hipport-stamp", "hipport-rocm-7.2/2 unpack=libhipblaslt-dev\n")
    before = oracle_stamp(tmp_path)
    write(tmp_path / ".hipport-stamp", "hipport-rocm-7.2/2 unpack=libhipblaslt-dev\n"
          "runtime=libhipblaslt1\n")
    assert before.startswith(" stamp ") and oracle_stamp(tmp_path) != before
