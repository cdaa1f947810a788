"""Issue 32 §15: `verify` must not be green when no GPU code was built.  The
HIP sources a build compiled, read from CMake's file API answer (written
here by hand) or its progress lines, and from the hipcc commands of make's
log; a build of the CPU backend alone is an HP660 finding naming the option
that selects the GPU one; -D and --make-var reach the build's commands."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.buildfiles.cmake.build import cmake_gpu_sources
from hipport.buildfiles.make.build import make_gpu_sources
from hipport.buildfiles.project import BuildPlan
from tests.verify.build_cli_test import calls, toolchain, verify_build
from tests.verify.cli_test import run, tree

__all__ = ["toolchain"]  # the fixture, used by name

REPLY = Path(".cmake", "api", "v1", "reply")


def file_api(folder: Path, targets: dict[str, list[tuple[str, str | None]]],
             cxx: str = "/usr/bin/c++") -> BuildPlan:
    """CMake's answer as the file API writes it: each target's sources with
    the language of their compile group (None: not compiled, a header)."""
    reply = folder / REPLY
    reply.mkdir(parents=True)
    entries = []
    for name, sources in targets.items():
        languages = sorted({lang for _, lang in sources if lang})
        groups = [{"language": lang, "sourceIndexes": []} for lang in languages]
        document = {"name": name, "type": "EXECUTABLE", "compileGroups": groups,
                    "sources": [{"path": path} | ({"compileGroupIndex": languages.index(lang)}
                                                  if lang else {})
                                for path, lang in sources]}
        (reply / f"target-{name}.json").write_text(json.dumps(document))
        entries.append({"name": name, "jsonFile": f"target-{name}.json"})
    (reply / "codemodel-v2-1.json").write_text(json.dumps(
        {"configurations": [{"targets": entries}]}))
    (reply / "toolchains-v1-1.json").write_text(json.dumps(
        {"toolchains": [{"language": "CXX", "compiler": {"path": cxx}}]}))
    (reply / "index-1.json").write_text(json.dumps({"objects": [
        {"kind": "codemodel", "jsonFile": "codemodel-v2-1.json"},
        {"kind": "toolchains", "jsonFile": "toolchains-v1-1.json"}]}))
    return BuildPlan(folder, ())


def test_cmake_counts_the_hip_compile_groups(tmp_path):
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX"), ("k.hip", "HIP"), ("k.h", None)],
                               "lib": [("a.cu", "HIP"), ("b.cu", "HIP")]})
    assert cmake_gpu_sources(plan, "") == 3


def test_cmake_a_cpu_build_compiled_none(tmp_path):
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX"), ("serial.cpp", "CXX")]})
    assert cmake_gpu_sources(plan, "[ 50%] Building CXX object CMakeFiles/app.dir/main.cpp.o"
                             ) == 0


def test_cmake_cxx_sources_are_hip_when_the_cxx_compiler_is_hipcc(tmp_path):
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX")]}, cxx="/opt/rocm/bin/hipcc")
    assert cmake_gpu_sources(plan, "") == 1


def test_cmake_cxx_sources_are_hip_when_their_flags_say_so(tmp_path):
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX")]})
    document = tmp_path / REPLY / "target-app.json"
    target = json.loads(document.read_text())
    target["compileGroups"][0]["compileCommandFragments"] = [{"fragment": "-O2 -x hip"}]
    document.write_text(json.dumps(target))
    assert cmake_gpu_sources(plan, "") == 1


def test_cmake_findhip_objects_are_counted(tmp_path):
    """hip_add_executable compiles with a custom command: its objects are
    sources of the target (a build folder built again prints nothing)."""
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX"),
                                       ("b/CMakeFiles/app.dir/app_generated_k.cu.o", None)]})
    log = "[ 33%] Building HIPCC object CMakeFiles/app.dir/app_generated_k.cu.o\n"
    assert cmake_gpu_sources(plan, log) == 1
    assert cmake_gpu_sources(plan, "") == 1


def test_cmake_custom_commands_that_run_hipcc_are_counted(tmp_path):
    """A driver-API program: host code in C++, its kernels a code object a
    custom command builds with hipcc --genco (issue 32 §2's shape)."""
    plan = file_api(tmp_path, {"app": [("main.cpp", "CXX")]})
    rules = tmp_path / "CMakeFiles" / "kernels.dir" / "build.make"
    rules.parent.mkdir(parents=True)
    rules.write_text("kernel.co: /src/kernel.cu\n"
                     "\t@$(CMAKE_COMMAND) -E cmake_echo_color --blue \"Generating kernel.co\"\n"
                     "\tcd /b && /usr/bin/hipcc --genco --offload-arch=gfx90a /src/kernel.cu "
                     "-o /b/kernel.co\n"
                     "# /usr/bin/hipcc in a comment.cu is no command\n")
    assert cmake_gpu_sources(plan, "") == 1


def test_cmake_without_a_file_api_answer_reads_the_progress_lines(tmp_path):
    plan = BuildPlan(tmp_path, ())
    log = ("[ 25%] Building HIP object CMakeFiles/app.dir/k.hip.o\n"
           "[ 50%] Building CXX object CMakeFiles/app.dir/main.cpp.o\n")
    assert cmake_gpu_sources(plan, log) == 1
    assert cmake_gpu_sources(plan, log.splitlines()[1]) == 0
    assert cmake_gpu_sources(plan, "") is None  # nothing to tell by


TRACE = "make: Entering directory '/b/t'\n"


@pytest.mark.parametrize("log, expected", [
    pytest.param(TRACE + "Makefile:6: update target 'k.o' due to: k.cu\n"
                 "/usr/bin/hipcc -O2 -c k.cu -o k.o\n"
                 "Makefile:4: update target 'app' due to: k.o\n/usr/bin/hipcc k.o -o app\n",
                 1, id="silent-recipe-traced"),
    pytest.param(TRACE + "Makefile:4: update target 'app' due to: main.cpp\n"
                 "g++ -O2 main.cpp -o app\n", 0, id="cpu-only"),
    pytest.param(TRACE + "Makefile:4: update target 'o/a.o' due to: a.cpp\n"
                 "cd src && HIP_PLATFORM=amd hipcc -c a.cpp -o ../o/a.o && echo done\n"
                 "Makefile:5: update target 'b.o' due to: b.hip\n"
                 "clang++ -x hip --offload-arch=gfx90a -c b.hip -o b.o\n", 2,
                 id="after-cd-and-clang"),
    pytest.param(TRACE + "Makefile:4: update target 'x' due to: x.cpp\n"
                 "clang++ -c x.cpp -o x.o\n", 0, id="clang-not-hip"),
    pytest.param(TRACE + "Makefile:4: update target 'x.o' due to: x.cu\n"
                 "ccache /opt/rocm/bin/hipcc -c x.cu -o x.o\n", 1, id="ccache"),
    pytest.param("make: Nothing to be done for 'all'.\n", None, id="no-trace"),
])
def test_make_counts_the_sources_given_to_hipcc(log, expected):
    assert make_gpu_sources(log) == expected


LISTS = """\
cmake_minimum_required(VERSION 3.21)
project(p LANGUAGES CXX)
option(USE_HIP "the HIP backend" OFF)
add_executable(app main.cpp serial.cpp)
if(USE_HIP)
  enable_language(HIP)
  target_sources(app PRIVATE kernel.hip)
endif()
"""
CPU_BUILD = "[ 50%] Building CXX object CMakeFiles/app.dir/main.cpp.o\n" \
            "[100%] Built target app\n"
GPU_BUILD = "[ 33%] Building HIP object CMakeFiles/app.dir/kernel.hip.o\n" + CPU_BUILD


def test_a_cpu_build_of_a_project_with_gpu_code_is_not_green(tmp_path, toolchain,
                                                             monkeypatch):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "main.cpp": "int main() {}\n",
                                "serial.cpp": "", "kernel.hip": ""})
    (tmp_path / "cpu.log").write_text(CPU_BUILD)
    monkeypatch.setenv("FAKE_BUILD", str(tmp_path / "cpu.log"))
    result = verify_build(src, "--strict")
    assert result.exit_code == 1, result.output
    assert f"{src / 'CMakeLists.txt'}:5: HP660 error: the build compiled no HIP source, though " \
           "the project has 1 (kernel.hip): it built no GPU code; the GPU code is behind " \
           "if(USE_HIP), false with the default options: configure with -DUSE_HIP=ON" \
           in result.stderr
    assert f"{src}: CMake: built, but compiled no HIP source" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("0 of 1 project build (CMake)")
    document = json.loads(verify_build(src, "-f", "json").stdout)
    (project,) = document["projects"]
    assert (project["ok"], project["gpu_sources"]) == (False, 0)
    assert [f["code"] for f in document["findings"]] == ["HP660"]

    (tmp_path / "log").unlink()
    (tmp_path / "gpu.log").write_text(GPU_BUILD)
    monkeypatch.setenv("FAKE_BUILD", str(tmp_path / "gpu.log"))
    given = verify_build(src, "--strict", "-D", "USE_HIP=ON", "-DMODE:STRING=fast")
    assert given.exit_code == 0, given.output
    configure = calls(tmp_path)[0]
    # the user's -D last: they win over hipport's defaults
    assert configure[-2:] == ["-DUSE_HIP=ON", "-DMODE:STRING=fast"]
    assert given.stderr.splitlines()[-1].startswith("1 of 1 project builds (CMake)")


def test_without_a_known_switch_the_project_s_gpu_options_are_named(tmp_path, toolchain,
                                                                   monkeypatch):
    lists = ('project(p CXX)\noption(WITH_ROCM "build for AMD GPUs" OFF)\n'
             "add_executable(app main.cpp)\ninclude(CheckLanguage)\ncheck_language(HIP)\n"
             "if(CMAKE_HIP_COMPILER OR WITH_ROCM)\n  enable_language(HIP)\n"
             "  target_sources(app PRIVATE kernel.hip)\nendif()\n")
    src = tree(tmp_path / "t", {"CMakeLists.txt": lists, "main.cpp": "", "kernel.hip": ""})
    (tmp_path / "cpu.log").write_text(CPU_BUILD)
    monkeypatch.setenv("FAKE_BUILD", str(tmp_path / "cpu.log"))
    result = verify_build(src)
    assert f"{src / 'CMakeLists.txt'}:2: HP660 error: the build compiled no HIP source, though " \
           "the project has 1 (kernel.hip): it built no GPU code with the default options; the " \
           "project's options that may select it: WITH_ROCM=OFF: give the one its GPU build " \
           "needs with -D NAME=VALUE" in result.stderr


def test_a_project_without_gpu_sources_needs_none(tmp_path, toolchain, monkeypatch):
    src = tree(tmp_path / "t", {"CMakeLists.txt": "project(p CXX)\nadd_executable(a a.cpp)\n",
                                "a.cpp": "int main() {}\n"})
    (tmp_path / "cpu.log").write_text(CPU_BUILD)
    monkeypatch.setenv("FAKE_BUILD", str(tmp_path / "cpu.log"))
    result = verify_build(src, "--strict")
    assert result.exit_code == 0, result.output


def test_a_make_build_that_ran_no_hipcc_names_make_variables(tmp_path, toolchain,
                                                            monkeypatch):
    src = tree(tmp_path / "t", {"Makefile": "all:\n\tg++ main.cpp\n", "main.cpp": "",
                                "k.cu": ""})
    (tmp_path / "make.log").write_text(TRACE + "Makefile:2: update target 'all' due to: "
                                       "target does not exist\ng++ main.cpp\n")
    monkeypatch.setenv("FAKE_BUILD", str(tmp_path / "make.log"))
    result = verify_build(src, "--strict", "--make-var", "GPU=hip", "--make-var", "X=a b")
    assert result.exit_code == 1, result.output
    assert "HP660 error: the build compiled no HIP source, though the project has 1 (k.cu): " \
           "it built no GPU code with the options given: pass the option that selects the " \
           "GPU backend (--make-var NAME=VALUE), or add the GPU sources to a target" \
           in result.stderr
    (make,) = calls(tmp_path)
    assert make[-2:] == ["GPU=hip", "X=a b"]  # as make's own arguments, one each


@pytest.mark.parametrize("args, message", [
    pytest.param(["verify", "-D", "MODEL"], "-D MODEL: give NAME=VALUE, as cmake -D takes it",
                 id="no-value"),
    pytest.param(["verify", "--make-var", "A B=1"], "--make-var A B=1: give NAME=VALUE",
                 id="bad-name"),
    pytest.param(["convert", "-o", "OUT", "-D", "A=1"], "-D and --make-var only apply to "
                 "--verify", id="convert-without-verify"),
    pytest.param(["report", "--make-var", "A=1"], "-D and --make-var only apply to --verify",
                 id="report-without-verify"),
])
def test_configure_options_are_checked(tmp_path, args, message):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "kernel.hip": ""})
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    result = run(args[0], src, *args[1:])
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_a_configure_that_wants_an_option_is_told_how_to_give_it(tmp_path, toolchain,
                                                                 monkeypatch):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "kernel.hip": ""})
    (tmp_path / "configure.log").write_text(
        "CMake Error at CMakeLists.txt:4 (message):\n  MODEL is unspecified: pass -DMODEL=x\n\n")
    monkeypatch.setenv("FAKE_CONFIGURE", str(tmp_path / "configure.log"))
    monkeypatch.setenv("FAKE_CONFIGURE_STATUS", "1")
    result = verify_build(src)
    assert "HP657 error: CMake: MODEL is unspecified: pass -DMODEL=x" in result.stderr
    assert "  hint: the project stops until a configure option is given: give it as you would " \
           "build it, -D NAME=VALUE (CMake)" in result.stderr
