"""`hipport verify --build` of hostile projects in the real sandbox (issue 31):
a Makefile and a CMakeLists.txt (configure and build time) that write to
$HOME, /tmp, the user's tree and through a link in it, read a file in
$HOME and a secret of the environment, connect to a listener on 127.0.0.1
and leave background processes (``&``, ``setsid``, a double fork).  Each
attempt fails or stays in the sandbox; the tree is byte for byte as it was;
$TMPDIR holds nothing new; and the verdict is the build's (the projects
that only tried build, the one that needs the secret fails).  Run with
both toolchains: hipport's ROCm (its chroot is the sandbox's root) and the
machine's HIP 5.2 (the host's / is)."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import socket
import tempfile
import threading
from pathlib import Path

import pytest

from tests.ci import missing
from tests.toolchain import ORACLE_NAMES, require_hip_oracle, toolchain_cache
from tests.verify.build_test import verify

pytestmark = pytest.mark.slow


def attempts(tree: Path, outside: Path, home: Path, marker: str, port: int) -> list[str]:
    """Shell commands that each try to get out; none may stop the build."""
    return [
        f'echo pwned > "$HOME/pwned-{marker}"',
        f"echo pwned > {home}/pwned-{marker}",
        f"echo pwned > /tmp/pwned-{marker}",
        f"echo pwned > {tree}/pwned-{marker}",
        f"echo pwned > link/pwned-{marker}",  # link -> outside
        f"cat {home}/secret-{marker}",
        'echo "token=$HIPPORT_SANDBOX_SECRET"',
        f"bash -c 'echo {marker} > /dev/tcp/127.0.0.1/{port}'",
        f"sleep {marker} > /dev/null 2>&1 &",
        f"setsid sleep {marker} > /dev/null 2>&1 &",
        f"( ( sleep {marker} > /dev/null 2>&1 & ) & )",
    ]


def makefile(commands: list[str]) -> str:
    return "all:\n" + "".join(f"\t-{c}\n" for c in commands) + "\t@echo done\n"


def cmakelists(commands: list[str]) -> str:
    script = "; ".join(f"{{ {c} }}" if c.endswith("&") else f"{c} || true" for c in commands)
    quoted = script.replace("\\", "\\\\").replace('"', '\\"')
    return ("cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES NONE)\n"
            f'execute_process(COMMAND sh -c "{quoted}" WORKING_DIRECTORY '
            "${CMAKE_CURRENT_SOURCE_DIR})\n"
            f'add_custom_target(hostile ALL COMMAND sh -c "{quoted}" WORKING_DIRECTORY '
            "${CMAKE_CURRENT_SOURCE_DIR} VERBATIM)\n"
            "configure_file(${CMAKE_CURRENT_SOURCE_DIR}/config.h.in "
            "${CMAKE_CURRENT_SOURCE_DIR}/config.h)\n")


def digest(tree: Path) -> dict[str, str]:
    """Every entry of the tree: a file's bytes, a link's target."""
    found = {}
    for path in sorted(tree.rglob("*")):
        name = path.relative_to(tree).as_posix()
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_file():
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[name] = "folder"
    return found


def alive(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode(
                    "utf-8", "replace"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


class Listener:
    """A TCP listener on 127.0.0.1 that counts its connections."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.thread.join()
        self.server.close()


@pytest.fixture
def toolchains(request, monkeypatch) -> list[str]:
    """The --hipcc arguments of the toolchain asked for (none: hipport's)."""
    if shutil.which("bwrap") is None:
        missing("bwrap not found; run scripts/setup-toolchain.sh (Debian: bubblewrap)")
    oracle = require_hip_oracle(request.param)
    for name in ("HIPCC", "ROCM_PATH", "HIP_PLATFORM", "MAKEFLAGS", "MAKELEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))
    return [] if oracle.name == ORACLE_NAMES[-1] else ["--hipcc", oracle.hipcc]


@pytest.mark.parametrize("toolchains", ORACLE_NAMES, indirect=True)
def test_hostile_build_code_is_contained(tmp_path, toolchains, monkeypatch):
    marker = f"{random.randint(700, 799)}.{os.getpid()}{random.randint(100, 999)}"
    home = Path(os.path.expanduser("~"))
    secret = home / f"secret-{marker}"
    secret.write_text(f"SECRET-{marker}\n")
    monkeypatch.setenv("HIPPORT_SANDBOX_SECRET", f"TOKEN-{marker}")
    temp = tmp_path / "temp"  # the user's $TMPDIR
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    outside = tmp_path / "outside"
    outside.mkdir()
    listener = Listener()
    src = tmp_path / "tree"
    try:
        commands = attempts(src, outside, home, marker, listener.port)
        for name, text in {"mk/Makefile": makefile(commands),
                           "cm/CMakeLists.txt": cmakelists(commands),
                           "cm/config.h.in": "#define X 1\n",
                           "needs/Makefile": f"all:\n\tcat {secret}\n"}.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(text)
        for project in ("mk", "cm"):
            os.symlink(outside, src / project / "link")
        before = digest(src)
        code, data, text = verify(src, *toolchains)
    finally:
        listener.close()
        secret.unlink()
        leftovers = [p for p in (home / f"pwned-{marker}", Path(f"/tmp/pwned-{marker}"))
                     if p.exists()]
        for path in leftovers:
            path.unlink()
    assert code == 0, text
    assert digest(src) == before  # configure_file into the source folder: the copy's
    assert not leftovers and list(outside.iterdir()) == []
    assert listener.connections == 0
    assert alive(marker) == []
    assert list(temp.iterdir()) == []  # verify's scratch folder and the compilers' files
    assert data["sandbox"] is not None
    outputs = "".join(s["output"] for p in data["projects"] for s in p["steps"])
    assert f"SECRET-{marker}" not in outputs and f"TOKEN-{marker}" not in outputs
    built = {Path(p["path"]).name: p["ok"] for p in data["projects"]}
    assert built == {"cm": True, "mk": True, "needs": False}  # the build's own verdict
    (failure,) = [f for f in data["findings"] if Path(f["project"]).name == "needs"]
    assert failure["code"] == "HP658"


def test_a_read_only_tree_verifies_unchanged(tmp_path, rocm_sandboxed):
    """Item 3: configure_file into the source folder wrote config.h into the
    user's tree (and a read-only tree failed to configure)."""
    src = tmp_path / "ro"
    (src / "src").mkdir(parents=True)
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX HIP)\n"
        "configure_file(${CMAKE_CURRENT_SOURCE_DIR}/config.h.in "
        "${CMAKE_CURRENT_SOURCE_DIR}/config.h)\n"
        "add_executable(app src/main.hip)\n"
        "target_include_directories(app PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})\n")
    (src / "config.h.in").write_text("#define ANSWER 42\n")
    (src / "src" / "main.hip").write_text(
        '#include <hip/hip_runtime.h>\n#include "config.h"\n'
        "static_assert(ANSWER == 42);\n__global__ void k(int *p) { *p = ANSWER; }\n"
        "int main() { return 0; }\n")
    before = digest(src)
    for path in [src, *src.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        code, data, text = verify(src, "--strict")
    finally:
        for path in [src, *src.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
    assert code == 0, text
    assert digest(src) == before
    assert (data["summary"]["targets"], data["summary"]["targets_built"]) == (1, 1)


@pytest.fixture
def rocm_sandboxed(monkeypatch) -> None:
    if shutil.which("bwrap") is None:
        missing("bwrap not found; run scripts/setup-toolchain.sh (Debian: bubblewrap)")
    require_hip_oracle(ORACLE_NAMES[-1])
    for name in ("HIPCC", "ROCM_PATH", "HIP_PLATFORM", "MAKEFLAGS", "MAKELEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))


def test_a_project_folder_with_a_newline_builds(tmp_path, rocm_sandboxed):
    """Item 15: CMake takes no newline in a path; the copy's and the build
    folder's names are hipport's, so the project's own name does not matter."""
    src = tmp_path / "two\nlines"
    src.mkdir()
    (src / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.21)\n"
                                        "project(p LANGUAGES CXX)\nadd_executable(a a.cpp)\n")
    (src / "a.cpp").write_text("int main() { return 0; }\n")
    code, data, text = verify(src, "--strict")
    assert code == 0, text
    assert data["summary"]["targets_built"] == 1


def test_a_path_cmake_cannot_take_is_named(tmp_path, rocm_sandboxed):
    """Item 15: a project below the tree's top keeps its folder's name in
    the copy; CMake fails there, and the finding says why."""
    src = tmp_path / "t"
    project = src / "sub;dir"
    project.mkdir(parents=True)
    (project / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.21)\n"
                                            "project(p LANGUAGES CXX)\nadd_executable(a a.cpp)\n")
    (project / "a.cpp").write_text("int main() { return 0; }\n")
    code, data, text = verify(src)
    (finding,) = data["findings"]
    assert finding["message"] == ("error: CMake cannot build in a folder whose path has a ';' "
                                  "in it; rename 'sub;dir'")
    assert finding["location"]["path"] == str(project / "CMakeLists.txt")
