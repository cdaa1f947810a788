"""The build tools that go with the chosen hipcc (hipport.verify.toolchain):
hipport's ROCm toolchain's own, linking with lld; else the machine's, with
the ROCm root in the environment; each asked --version first."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.doctor.system import Output, System
from hipport.verify.compiler import Compiler
from hipport.verify.toolchain import CHROOT_PATH, NoBuildTool, find_toolchain


def machine(tmp_path: Path, answers: dict[str, Output] | None = None,
            **env: str) -> tuple[System, list[list[str]]]:
    asked: list[list[str]] = []

    def run(argv, environ, timeout):
        asked.append(list(argv))
        name = Path(argv[0]).name
        return (answers or {}).get(name, Output(0, "/llvm/bin\n" if name == "hipconfig"
                                                else f"{name} 1.0\n"))

    def which(name, environ):
        return f"/usr/bin/{name}"

    base = {"PATH": "/usr/bin:/bin", "HIPPORT_TOOLCHAIN_CACHE": str(tmp_path / "tc")}
    return System(env={**base, **env}, which=which, run=run), asked


def compiler(path: str, chosen_by: str = "PATH") -> Compiler:
    return Compiler(path, "6.4", "21.1.8", (("HIP_PLATFORM", "amd"),), chosen_by)


def test_hipports_toolchain_brings_its_tools_and_lld(tmp_path):
    system, asked = machine(tmp_path, ROCM_PATH="/opt/rocm")
    hipcc = tmp_path / "tc" / "bin" / "hipcc"
    found = find_toolchain(system, compiler(str(hipcc), "toolchain"), ("cmake", "make"))
    tools = found.tools
    assert tools.program("cmake") == (str(tmp_path / "tc" / "bin" / "cmake"),)
    assert tools.link_flags == ("-fuse-ld=lld", "-B/llvm/bin")
    assert "GNU ld refuses" in tools.link_why
    assert tools.hipcc == "/usr/bin/hipcc" and tools.rocm_root == "/usr"
    assert "ROCM_PATH" in tools.unset  # the machine's ROCm is not the chroot's
    assert [a for a in asked if a[-1] == "--version"] == [
        [str(tmp_path / "tc" / "bin" / "cmake"), "--version"],
        [str(tmp_path / "tc" / "bin" / "make"), "--version"]]


def test_a_rocm_root_uses_the_machines_tools(tmp_path):
    system, _ = machine(tmp_path, CMAKE_PREFIX_PATH="/mine")
    found = find_toolchain(system, compiler("/opt/rocm-6.4.0/bin/hipcc", "/opt/rocm-X.Y.Z"),
                           ("make",))
    env = dict(found.tools.env)
    assert found.tools.program("make") == ("/usr/bin/make",) and not found.tools.link_flags
    assert env["ROCM_PATH"] == "/opt/rocm-6.4.0"
    assert env["CMAKE_PREFIX_PATH"] == "/opt/rocm-6.4.0:/mine"
    assert env["PATH"].startswith("/opt/rocm-6.4.0/bin:")
    assert found.where == (("make", "/usr/bin/make"),)


def test_a_distributions_root_is_left_to_cmake(tmp_path):
    system, _ = machine(tmp_path)
    found = find_toolchain(system, compiler("/usr/bin/hipcc"), ("cmake",))
    assert found.tools.rocm_root == "/usr" and "ROCM_PATH" not in dict(found.tools.env)


def test_a_tool_that_does_not_run_is_named(tmp_path):
    system, _ = machine(tmp_path, {"cmake": Output(error="cmake not found")})
    with pytest.raises(NoBuildTool, match=r"^cannot run cmake \(/usr/bin/cmake: cmake not "
                                          r"found\), which builds the project with hipcc"):
        find_toolchain(system, compiler("/usr/bin/hipcc"), ("cmake", "make"))


def test_in_the_sandbox_the_toolchain_runs_its_chroots_own_tools(tmp_path):
    """The wrappers' unshare and chroot cannot run in bwrap: the chroot their
    .root names is the sandbox's root, its own cmake and make run there."""
    system, asked = machine(tmp_path)
    root = tmp_path / "rocm-x"
    (root / "usr" / "bin").mkdir(parents=True)
    (tmp_path / "tc" / "bin").mkdir(parents=True)
    (tmp_path / "tc" / "bin" / ".root").write_text(f"{root}\n")
    hipcc = tmp_path / "tc" / "bin" / "hipcc"
    found = find_toolchain(system, compiler(str(hipcc), "toolchain"), ("cmake", "make"),
                           bwrap="/usr/bin/bwrap")
    assert found.tools.program("cmake") == ("/usr/bin/cmake",) and found.sysroot == root
    assert dict(found.tools.env)["PATH"] == CHROOT_PATH
    (probe,) = [a for a in asked if a[0] == "/usr/bin/bwrap" and "/usr/bin/cmake" in a]
    assert probe[probe.index("--ro-bind") + 1:probe.index("--ro-bind") + 3] == [str(root), "/"]
    assert probe[-2:] == ["/usr/bin/cmake", "--version"]
    assert found.where == (("cmake", f"{root}/usr/bin/cmake"), ("make", f"{root}/usr/bin/make"))


def test_a_host_rocm_under_home_is_shown_to_the_sandbox(tmp_path):
    system, _ = machine(tmp_path, HOME="/home/me")
    found = find_toolchain(system, compiler("/home/me/rocm/bin/hipcc", "--hipcc"), ("cmake",),
                           bwrap="/usr/bin/bwrap")
    assert Path("/home/me/rocm") in found.needs and found.sysroot == Path("/")
