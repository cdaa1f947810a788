"""`hipport verify --build` with real tools: ROCm 6.4's hipcc, cmake and make
(hipport's ROCm toolchain, the chroot of docs/toolchains.md), chosen as a
user gets them, with no option.  Small CMake and Make projects that build,
and broken ones: each failure found at its line of the tree, with its code.
`--units` and `--build` agree on a C++ source the build compiles as C++
(both oracles: hipcc -x c++ defines no HIP platform on either)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.conftest import REPO
from tests.toolchain import ORACLE_NAMES, HipOracle, require_hip_oracle, toolchain_cache

pytestmark = pytest.mark.slow

SCHEMA = json.loads((REPO / "docs" / "verify.schema.json").read_text())
HEAD = "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n" \
       "find_package(hip REQUIRED)\n"
KERNEL = "#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n" \
         "void launch(int *p) { hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, p); }\n"
MAIN = "#include <hip/hip_runtime.h>\nvoid launch(int *p);\n" \
       "int main() { launch(nullptr); return hipDeviceSynchronize() != hipSuccess; }\n"


@pytest.fixture
def rocm(monkeypatch) -> HipOracle:
    """ROCm 6.4 as `hipport verify` finds it by itself: hipport's toolchain."""
    oracle = require_hip_oracle(ORACLE_NAMES[-1])
    for name in ("HIPCC", "ROCM_PATH", "HIP_PLATFORM", "MAKEFLAGS", "MAKELEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))
    return oracle


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def verify(*args) -> tuple[int, dict, str]:
    """(exit status, the JSON document, the text output's stderr)."""
    runner = CliRunner()
    data = runner.invoke(cli, ["verify", *map(str, args), "-f", "json"], catch_exceptions=False)
    document = json.loads(data.stdout)
    jsonschema.validate(document, SCHEMA)
    text = runner.invoke(cli, ["verify", *map(str, args)], catch_exceptions=False)
    return data.exit_code, document, text.stderr


def finding(document: dict, code: str) -> dict:
    found = [f for f in document["findings"] if f["code"] == code]
    assert len(found) == 1, document["findings"]
    return found[0]


def test_a_cmake_project_that_builds(tmp_path, rocm):
    src = tree(tmp_path / "p", {
        "CMakeLists.txt": HEAD + "add_library(kern STATIC src/kernel.hip)\n"
                          "add_executable(app src/main.cpp)\n"
                          "target_link_libraries(app PRIVATE kern hip::host)\n",
        "src/kernel.hip": KERNEL, "src/main.cpp": MAIN})
    code, data, text = verify(src, "--strict")
    assert code == 0, text
    assert data["mode"] == "build" and data["summary"]["built"] == 1
    assert (data["summary"]["targets"], data["summary"]["targets_built"]) == (2, 2)
    chroot = Path((toolchain_cache() / "bin" / ".root").read_text().strip())
    assert data["build_tools"]["programs"]["cmake"] == str(chroot / "usr" / "bin" / "cmake")
    assert data["sandbox"] == {"tool": shutil.which("bwrap"), "root": str(chroot)}
    assert data["build_tools"]["link_flags"][0] == "-fuse-ld=lld"
    assert text.splitlines()[-1].startswith("1 of 1 project builds (CMake) with hipcc (HIP 6.4")
    assert "; 2 of 2 targets built (" in text.splitlines()[-1]
    assert not list(src.rglob("CMakeCache.txt"))  # built outside the tree


def test_a_make_project_that_builds(tmp_path, rocm):
    src = tree(tmp_path / "m", {
        "Makefile": "HIPCC ?= hipcc\napp: kernel.o main.o\n\t$(HIPCC) $^ -o $@\n"
                    "kernel.o: kernel.hip\n\t$(HIPCC) -c $< -o $@\n"
                    "main.o: main.cpp\n\t$(HIPCC) -c $< -o $@\n",
        "kernel.hip": KERNEL, "main.cpp": MAIN})
    code, data, text = verify(src, "--strict")
    assert code == 0, text
    assert data["projects"][0]["build_system"] == "make"
    assert sorted(p.name for p in src.iterdir()) == ["Makefile", "kernel.hip", "main.cpp"]


def test_a_configure_error(tmp_path, rocm):
    src = tree(tmp_path / "p", {"CMakeLists.txt": HEAD + "find_package(nothere REQUIRED)\n"
                                                         "add_executable(app main.hip)\n",
                                "main.hip": KERNEL + "int main() {}\n"})
    code, data, text = verify(src, "--strict")
    assert code == 1
    found = finding(data, "HP657")
    assert found["location"] == {"path": str(src / "CMakeLists.txt"), "line": 4, "column": 0}
    assert found["message"].startswith('error: CMake: By not providing "Findnothere.cmake"')
    assert f"{src}/CMakeLists.txt:4: HP657 error: CMake: By not providing" in text


CXX_ONLY = HEAD + "add_library(kern STATIC kernel.hip)\nadd_executable(app main.cpp)\n" \
                  "target_include_directories(app PRIVATE ${hip_INCLUDE_DIRS})\n" \
                  "target_link_libraries(app PRIVATE kern)\n"


def test_a_cpp_source_compiled_as_cxx_without_the_hip_platform(tmp_path, rocm):
    """Issue 26, class 1: the build compiles main.cpp as C++ and hip_runtime.h
    stops it; --units said green."""
    src = tree(tmp_path / "p", {"CMakeLists.txt": CXX_ONLY, "kernel.hip": KERNEL,
                                "main.cpp": MAIN})
    code, data, text = verify(src, "--strict")
    assert code == 1
    found = finding(data, "HP658")
    assert found["location"] == {"path": str(src / "main.cpp"), "line": 1, "column": 0}
    assert found["target"] == "app" and found["unit"] == str(src / "main.cpp")
    assert "Must define exactly one of __HIP_PLATFORM_AMD__" in found["message"]
    assert (data["summary"]["targets"], data["summary"]["targets_built"]) == (2, 1)
    assert f"  in CMake project {src}, target app" in text


@pytest.mark.parametrize("linked", [False, True], ids=["cxx", "hip-host"])
def test_units_and_build_agree_on_a_cpp_source(tmp_path, hip_oracle, monkeypatch, linked):
    """--units compiles main.cpp as the build does: as C++, failing at
    hip_runtime.h's #error without hip::host, compiling with it."""
    lists = CXX_ONLY + ("target_link_libraries(app PRIVATE hip::host)\n" if linked else "")
    src = tree(tmp_path / "p", {"CMakeLists.txt": lists, "kernel.hip": KERNEL,
                                "main.cpp": MAIN})
    for key, value in hip_oracle.env:
        monkeypatch.setenv(key, value)
    extra = [f"--hipcc-arg={a}" for a in hip_oracle.include_args]
    code, data, text = verify(src, "--units", "--strict", "--hipcc", hip_oracle.hipcc, *extra)
    commands = {Path(u["path"]).name: u["command"] for u in data["units"]}
    assert commands["main.cpp"][-3:-1] == ["-x", "c++"]
    if linked:
        assert code == 0, text
        return
    assert code == 1
    found = finding(data, "HP020")
    assert found["unit"] == str(src / "main.cpp")
    assert found["location"]["path"] == str(src / "main.cpp")
    assert "Must define exactly one of __HIP_PLATFORM_AMD__" in found["message"]
    if hip_oracle.name == ORACLE_NAMES[-1]:  # the build says the same
        monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))
        code, build, _ = verify(src, "--build")
        assert finding(build, "HP658")["location"] == found["location"] | {"column": 0}


def test_link_errors(tmp_path, rocm):
    src = tree(tmp_path / "t", {
        "cm/CMakeLists.txt": HEAD + "add_executable(app main.cpp)\n"
                                    "target_link_libraries(app PRIVATE hip::host nothere)\n",
        "cm/main.cpp": MAIN + "void unused() { launch(nullptr); }\n",
        "mk/Makefile": "app: main.cpp\n\thipcc $< -o $@\n",
        "mk/main.cpp": "void absent();\nint main() {\n  absent();\n}\n"})
    code, data, text = verify(src, "--strict")
    assert code == 1
    by_project = {Path(f["project"]).name: f for f in data["findings"]}
    cmake, make = by_project["cm"], by_project["mk"]
    assert cmake["code"] == "HP659"
    assert cmake["location"] == {"path": str(src / "cm" / "CMakeLists.txt"), "line": 5,
                                 "column": 0}  # the line that links -lnothere
    assert "nothere" in cmake["message"]
    assert make["code"] == "HP659" and make["message"] == "error: undefined symbol: absent()"
    assert make["location"] == {"path": str(src / "mk" / "main.cpp"), "line": 3, "column": 0}
    assert make["target"] == "app"


def test_examples_build_with_no_option(tmp_path, rocm):
    """Issue 26: after the README's two commands, `hipport verify examples-hip`
    is all green with no extra flags."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    runner = CliRunner()
    converted = runner.invoke(cli, ["convert", str(tmp_path / "examples"), "-o",
                                    str(tmp_path / "examples-hip"), "--force", "-q"])
    assert converted.exit_code == 0, converted.output
    code, data, text = verify(tmp_path / "examples-hip", "--strict")
    assert code == 0, text
    projects = sorted(p.name for p in (REPO / "examples").iterdir() if p.is_dir())
    assert sorted(Path(p["path"]).name for p in data["projects"]) == projects
    assert data["summary"]["targets"] == data["summary"]["targets_built"] == len(projects)
