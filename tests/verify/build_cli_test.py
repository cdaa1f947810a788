"""`hipport verify --build` without real tools: a stand-in toolchain (hipcc,
hipconfig, cmake and make as shell scripts, where hipport's ROCm toolchain
would be) shows which mode is chosen, the commands and where they run, that
a Make tree is built in a copy, the time limit, and how the output of a
build is placed in the tree.  tests/verify/build_test.py builds for real."""
from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import REPO
from tests.leftovers import sleepers, survivors
from tests.verify.cli_test import run, tree

SCHEMA = json.loads((REPO / "docs" / "verify.schema.json").read_text())

HIPCC = """\
#!/bin/sh
if [ "$1" = "--version" ]; then echo "HIP version: 6.4.43484-9999"; \
echo "clang version 21.1.8"; exit 0; fi
for last; do :; done
[ "$last" = /dev/null ] && exit 0
out=; previous=
for arg; do [ "$previous" = "-o" ] && out=$arg; previous=$arg; done
[ -n "$out" ] && echo object > "$out"
printf '%s\\n' "hipcc" "$@" "@@" >> "$FAKE_LOG"
exit 0
"""
HIPCONFIG = "#!/bin/sh\necho /fake/llvm/bin\n"
# Logs its arguments, folder and hipcc's variables; prints $FAKE_<STEP>
# (a file) and exits with $FAKE_<STEP>_STATUS.  make also writes built.o
# where it runs; $FAKE_HANG makes the build start three sleeps and wait.
TOOL = """\
#!/bin/sh
[ "$1" = "--version" ] && { echo "{name} version 9.9"; exit 0; }
step=BUILD
[ "$1" = "-S" ] && step=CONFIGURE
printf '%s\\n' "{name}" "$PWD" "HIPCC=$HIPCC" "APPEND=$HIPCC_COMPILE_FLAGS_APPEND" \
  "LINK=$HIPCC_LINK_FLAGS_APPEND" "ROCM_PATH=$ROCM_PATH" "$@" "@@" >> "$FAKE_LOG"
if [ "{name}" = make ]; then echo object > built.o; fi
if [ "$step" = BUILD ] && [ -n "$FAKE_HANG" ]; then
{hang}
fi
eval out=\\$FAKE_$step
eval status=\\${{FAKE_${{step}}_STATUS:-0}}
[ -n "$out" ] && cat "$out"
exit $status
"""


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def toolchain(tmp_path, monkeypatch) -> Path:
    """A stand-in for hipport's ROCm toolchain: ``bin/`` with hipcc,
    hipconfig, cmake and make."""
    cache = tmp_path / "toolchain"
    executable(cache / "bin" / "hipcc", HIPCC)
    executable(cache / "bin" / "hipconfig", HIPCONFIG)
    hang = sleepers(tmp_path / "pids")
    for name in ("cmake", "make"):
        executable(cache / "bin" / name, TOOL.replace("{name}", name).replace("{hang}", hang)
                   .replace("{{", "{").replace("}}", "}"))
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(cache))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log"))
    for name in ("HIPCC", "HIP_PLATFORM", "ROCM_PATH", "FAKE_HANG", "MAKEFLAGS"):
        monkeypatch.delenv(name, raising=False)
    return cache


def verify_build(*args: object):
    """`hipport verify` of a build, outside the sandbox: the stand-in tools
    log to a file of the test's (tests/verify/sandbox_test.py builds in it)."""
    return run("verify", *args, "--no-sandbox")


def calls(tmp_path: Path) -> list[list[str]]:
    text = (tmp_path / "log").read_text() if (tmp_path / "log").exists() else ""
    return [c.strip("\n").split("\n") for c in text.split("@@\n") if c.strip()]


LISTS = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n" \
        "find_package(hip REQUIRED)\nadd_executable(app main.cpp k.hip)\n"
MAIN = "#include <hip/hip_runtime.h>\nvoid launch();\nint main() { launch(); }\n"


def test_a_tree_with_a_build_file_is_built(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "main.cpp": MAIN, "k.hip": ""})
    result = verify_build(src, "--strict", "-j", "3")
    assert result.exit_code == 0, result.output
    configure, build = calls(tmp_path)
    assert configure[0] == "cmake" and build[0] == "cmake"
    folder = Path(configure[configure.index("-B") + 1])
    assert not folder.is_relative_to(src) and not folder.exists()  # outside, and removed
    source = Path(configure[configure.index("-S") + 1])  # a copy of the tree, removed too
    assert source.name == "1-t" and source.parent.parent == folder.parent
    assert not source.exists()
    assert "-DCMAKE_HIP_ARCHITECTURES=gfx90a" in configure
    # the toolchain links with lld, and says why
    assert "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -B/fake/llvm/bin" in configure
    assert build[build.index("--build"):] == ["--build", str(folder), "-j", "3", "--", "-k"]
    lines = result.stderr.splitlines()
    assert any(line.startswith("linking with -fuse-ld=lld -B/fake/llvm/bin: hipport's ROCm "
                               "toolchain has hipBLAS") for line in lines)
    assert lines[-1].startswith("1 of 1 project builds (CMake) with hipcc (HIP 6.4, clang "
                                "21.1.8) for gfx90a (")


@pytest.mark.parametrize("args, files", [
    pytest.param(["--units"], {"CMakeLists.txt": LISTS}, id="asked"),
    pytest.param([], {}, id="no-build-file"),
    pytest.param(["--syntax-only"], {"CMakeLists.txt": LISTS}, id="syntax-only"),
])
def test_units_mode(tmp_path, toolchain, args, files):
    src = tree(tmp_path / "t", {"a.hip": "", **files})
    result = run("verify", src, *args)
    assert result.exit_code == 0, result.output
    assert [c[0] for c in calls(tmp_path)] == ["hipcc"]
    assert "1 of 1 translation unit compiles" in result.stderr


@pytest.mark.parametrize("args, files, message", [
    pytest.param(["--build"], {"a.hip": ""}, "has no build file hipport can build",
                 id="no-build-file"),
    pytest.param(["--build", "--syntax-only"], {"CMakeLists.txt": LISTS},
                 "--syntax-only only apply to --units", id="syntax-only"),
    pytest.param(["--units", "--build-dir", "b"], {"CMakeLists.txt": LISTS},
                 "--build-dir only apply to --build", id="build-dir"),
    pytest.param(["--build-system", "mesn"], {"CMakeLists.txt": LISTS},
                 "--build-system mesn: not a build system hipport can build", id="unknown"),
])
def test_usage_errors(tmp_path, toolchain, args, files, message):
    src = tree(tmp_path / "t", files)
    result = run("verify", src, *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not calls(tmp_path)


def test_a_build_tool_that_cannot_run_is_an_error_of_the_run(tmp_path, toolchain):
    (toolchain / "bin" / "cmake").unlink()
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    result = verify_build(src)
    assert result.exit_code == 2
    assert result.stderr.startswith("hipport: error: cannot run cmake ("), result.stderr
    assert "--units" in result.stderr


def test_a_make_tree_is_built_in_a_copy(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"common/helper.h": "", "app/Makefile": "all:\n\thipcc x\n",
                                "app/x.cpp": "", ".git/config": ""})
    kept = tmp_path / "kept"
    result = verify_build(src, "--strict", "--offload-arch", "gfx942", "--hipcc-arg=-DX=1",
                 "--build-dir", kept)
    assert result.exit_code == 0, result.output
    (make,) = calls(tmp_path)
    folder = Path(make[1])
    assert folder.name == "app" and folder.is_relative_to(kept)
    copy = folder.parent
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*")) == [
        "app", "app/Makefile", "app/built.o", "app/x.cpp", "common", "common/helper.h"]
    assert make[2:6] == ["HIPCC=/usr/bin/hipcc", "APPEND=--offload-arch=gfx942 -DX=1",
                         "LINK=-fuse-ld=lld -B/fake/llvm/bin", "ROCM_PATH="]
    assert make[6:] == ["-C", str(folder), "-k", "-w", "--trace", "-j", make[-1]]
    # the whole tree is copied (make may reach ../common), dot folders left out;
    # the user's tree is not written to
    assert not any(p.name == "built.o" for p in src.rglob("*"))


def test_a_hanging_build_is_stopped_with_everything_it_started(tmp_path, toolchain,
                                                             monkeypatch):
    monkeypatch.setenv("FAKE_HANG", "1")
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    began = time.monotonic()
    result = verify_build(src, "--timeout", "1", "-f", "json")
    assert time.monotonic() - began < 20
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["summary"]["timed_out"] == 1 and data["summary"]["failed"] == 1
    (finding,) = data["findings"]
    assert finding["code"] == "HP021" and finding["step"] == "build"
    assert finding["location"]["path"] == str(src / "CMakeLists.txt")
    assert data["projects"][0]["steps"][-1]["status"] is None
    assert len((tmp_path / "pids").read_text().split()) == 3
    assert survivors(tmp_path / "pids") == []


def test_build_failures_are_placed_in_the_tree(tmp_path, toolchain, monkeypatch):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS + "target_link_libraries(app m)\n",
                                "main.cpp": MAIN, "k.hip": "", "other.cpp": "int f();\n"
                                "int main() { return f(); }\n"})
    output = tmp_path / "build.out"
    output.write_text(
        f"In file included from {src}/main.cpp:1:\n"
        "/usr/include/hip/hip_runtime.h:66:2: error: #error (\"Must define exactly one of "
        "__HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");\n"
        "/usr/include/hip/hip_runtime_api.h:9744:2: error: #error (\"Must define\");\n"
        "gmake[2]: *** [CMakeFiles/app.dir/build.make:79: CMakeFiles/app.dir/main.cpp.o] "
        "Error 1\n"
        "ld.lld: error: undefined symbol: f()\n>>> referenced by other.cpp\n"
        ">>>               CMakeFiles/other.dir/other.cpp.o:(main)\n"
        "collect2: error: ld returned 1 exit status\n"
        "gmake[2]: *** [CMakeFiles/other.dir/build.make:102: other] Error 1\n"
        "gmake[1]: *** [CMakeFiles/Makefile2:157: CMakeFiles/other.dir/all] Error 2\n")
    monkeypatch.setenv("FAKE_BUILD", str(output))
    monkeypatch.setenv("FAKE_BUILD_STATUS", "2")
    result = verify_build(src, "-f", "json", "--strict")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    compile_error, link_error = data["findings"]
    assert compile_error["code"] == "HP658" and compile_error["target"] == "app"
    assert compile_error["location"] == {"path": str(src / "main.cpp"), "line": 1, "column": 0}
    assert compile_error["unit"] == str(src / "main.cpp")
    assert "Must define exactly one of __HIP_PLATFORM_AMD__" in compile_error["message"]
    assert compile_error["hint"].startswith("a C++ source compiled without the HIP platform: "
                                            "link its target with hip::host")
    assert link_error["code"] == "HP659" and link_error["target"] == "other"
    assert link_error["hint"] is None
    assert link_error["message"] == "error: undefined symbol: f()"
    # the line that uses f, not the one that declares it
    assert link_error["location"] == {"path": str(src / "other.cpp"), "line": 2, "column": 0}
    text = verify_build(src).stderr.splitlines()
    assert f"{src}/main.cpp:1: HP658 error: #error (\"Must define exactly one of " \
           "__HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\");" in text
    assert f"  in CMake project {src}, target app" in text
    assert text[text.index(f"  in CMake project {src}, target app") + 1].startswith("  hint: ")


def test_a_configure_error_in_a_package_is_placed_at_the_tree_s_call(tmp_path, toolchain,
                                                                      monkeypatch):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    output = tmp_path / "configure.out"
    output.write_text(
        "CMake Error at /usr/share/cmake-4.3/Modules/FindThreads.cmake:129 (message):\n"
        "  FindThreads only works if either C or CXX language is enabled\n"
        "Call Stack (most recent call first):\n"
        "  /usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake:167 (include)\n"
        "  CMakeLists.txt:3 (find_package)\n\n\n"
        "-- Configuring incomplete, errors occurred!\n")
    monkeypatch.setenv("FAKE_CONFIGURE", str(output))
    monkeypatch.setenv("FAKE_CONFIGURE_STATUS", "1")
    result = verify_build(src, "-f", "json")
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    (finding,) = data["findings"]
    assert finding["code"] == "HP657" and finding["step"] == "configure"
    assert finding["location"] == {"path": str(src / "CMakeLists.txt"), "line": 3, "column": 0}
    assert finding["message"] == ("error: CMake: FindThreads only works if either C or CXX "
                                  "language is enabled (in /usr/share/cmake-4.3/Modules/"
                                  "FindThreads.cmake:129)")
    assert len(calls(tmp_path)) == 1  # no build after a failed configure


def test_build_dir_is_kept_and_checked(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    inside = verify_build(src, "--build-dir", src / "build")
    assert inside.exit_code == 2 and "is inside the tree it builds" in inside.stderr
    full = tree(tmp_path / "full", {"mine.txt": "user data"})
    taken = verify_build(src, "--build-dir", full)
    assert taken.exit_code == 2 and "is not empty and was not made by hipport" in taken.stderr
    kept = tmp_path / "kept"
    for _ in range(2):  # a folder hipport made is used again
        result = verify_build(src, "--build-dir", kept)
        assert result.exit_code == 0, result.output
    assert (kept / ".hipport-build").is_file()
    folder = Path(calls(tmp_path)[0][calls(tmp_path)[0].index("-B") + 1])
    assert folder.parent == kept and folder.is_dir()


def test_units_outside_every_project_are_counted(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"a/CMakeLists.txt": LISTS, "a/k.hip": "", "tools/x.hip": "",
                                "tools/y.cu": ""})
    result = verify_build(src, "--build")
    assert result.exit_code == 0, result.output
    assert "2 translation units in no project were not built (`hipport verify --units` " \
           "compiles them)" in result.stderr


def test_cmake_is_built_where_a_folder_also_has_a_makefile(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "Makefile": "all:\n",
                                "sub/Makefile": "all:\n"})
    result = verify_build(src)
    assert [c[0] for c in calls(tmp_path)] == ["cmake", "cmake"]
    assert "1 project folder also has Make build files, not built (`--build-system make` " \
           "builds those)" in result.stderr
    (tmp_path / "log").unlink()
    verify_build(src, "--build-system", "make")
    assert [c[0] for c in calls(tmp_path)] == ["make"]  # the top Makefile; sub/ is below it


def test_units_compile_cpp_as_the_build_does(tmp_path, toolchain):
    """Issue 26: a main.cpp that includes hip/hip_runtime.h, compiled by the
    build as C++ without hip::host, was compiled as HIP by --units (green)
    where the build fails."""
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "main.cpp": MAIN,
                                "host/CMakeLists.txt": "add_executable(h main.cpp)\n"
                                "target_link_libraries(h PRIVATE hip::host)\n",
                                "host/main.cpp": MAIN,
                                "mk/Makefile": "main: main.cpp\n\t$(HIPCC) $< -o $@\n",
                                "mk/main.cpp": MAIN})
    result = run("verify", src, "--units", "-f", "json")
    assert result.exit_code == 0, result.output
    jsonschema.validate(json.loads(result.stdout), SCHEMA)
    commands = {Path(c[-1]).relative_to(src).as_posix(): c for c in calls(tmp_path)}
    assert commands["main.cpp"][-3:-1] == ["-x", "c++"]
    assert "-D__HIP_PLATFORM_AMD__=1" not in commands["main.cpp"]
    assert commands["host/main.cpp"][-3:-1] == ["-x", "c++"]
    assert "-D__HIP_PLATFORM_AMD__=1" in commands["host/main.cpp"]
    assert commands["mk/main.cpp"][-3:-1] == ["-x", "hip"]


def test_convert_in_place_verify_probes_the_build_tools_first(tmp_path, toolchain):
    (toolchain / "bin" / "make").unlink()
    cuda = "#include <cuda_runtime.h>\nint main() { cudaDeviceSynchronize(); }\n"
    lists = "project(p LANGUAGES CXX CUDA)\nadd_executable(k k.cu)\n"
    src = tree(tmp_path / "t", {"k.cu": cuda, "CMakeLists.txt": lists})
    result = run("convert", src, "--in-place", "--verify", "--no-sandbox")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("hipport: error: cannot run make ("), result.stderr
    assert (src / "k.cu").read_text() == cuda
    assert (src / "CMakeLists.txt").read_text() == lists
    units = run("convert", src, "--in-place", "--verify-units")  # needs no make
    assert units.exit_code == 0, units.output
    assert "1 of 1 translation unit compiles" in units.stderr
    assert "hipLaunch" not in (src / "k.cu").read_text() and "hip" in (src / "k.cu").read_text()


def test_a_build_file_with_its_own_gpu_targets_keeps_them(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"p/CMakeLists.txt": LISTS + 'set(CMAKE_HIP_ARCHITECTURES '
                                                           '"gfx942;gfx90a")\n'})
    result = verify_build(src)
    assert "-DCMAKE_HIP_ARCHITECTURES=gfx90a" in calls(tmp_path)[0]  # a default: the file wins
    assert "for their build files' GPU targets, default gfx90a (" in result.stderr
    given = verify_build(src, "--offload-arch", "gfx942")
    assert given.stderr.splitlines()[-1].startswith(
        "1 of 1 project builds (CMake) with hipcc (HIP 6.4, clang 21.1.8) for gfx942 (")


@pytest.mark.parametrize("makefile, given, appended", [
    pytest.param("all:\n\thipcc --offload-arch=gfx942 x.hip\n", (), "", id="its-own"),
    pytest.param("all:\n\thipcc x.hip\n", (), "--offload-arch=gfx90a", id="none"),
    pytest.param("all:\n\thipcc --offload-arch=gfx942 x.hip\n", ("--offload-arch", "gfx1100"),
                 "--offload-arch=gfx1100", id="asked"),
])
def test_hipcc_gets_a_gpu_target_where_the_makefile_names_none(tmp_path, toolchain, makefile,
                                                               given, appended):
    src = tree(tmp_path / "t", {"Makefile": makefile})
    verify_build(src, *given)
    (make,) = calls(tmp_path)
    assert make[3] == f"APPEND={appended}"


def test_two_trees_of_one_name_get_a_copy_each(tmp_path, toolchain):
    first = tree(tmp_path / "a" / "x", {"Makefile": "all:\n", "one.cpp": ""})
    second = tree(tmp_path / "b" / "x", {"Makefile": "all:\n", "two.cpp": ""})
    kept = tmp_path / "kept"
    result = verify_build(first, second, "--build-dir", kept, "-j", "1")
    assert result.exit_code == 0, result.output
    folders = [Path(c[1]) for c in calls(tmp_path)]
    assert len(set(folders)) == 2
    assert sorted(p.name for f in folders for p in f.iterdir()) == [
        "Makefile", "Makefile", "built.o", "built.o", "one.cpp", "two.cpp"]
