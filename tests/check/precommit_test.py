"""The hook for real: the `pre-commit` package from PyPI installs hipport from
a copy of this checkout and runs it on commits in a temporary repository.

Needs git and network access to PyPI (pre-commit builds the hook's own
virtualenv).  The environments are built twice (once by `try-repo`, once for
the installed hook) and shared by the module through PRE_COMMIT_HOME."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

LEGACY = """#include <cuda_runtime.h>
__global__ void kernel(float* out) { out[threadIdx.x] = 1.0f; }

int occupancy(cudaLaunchConfig_t* cfg) {
  int clusters = 0;
  cudaOccupancyMaxActiveClusters(&clusters, kernel, cfg);
  return clusters;
}

void run(float* d) {
  kernel<<<1, 32>>>(d);
}
"""
HIP = """#include <hip/hip_runtime.h>
void alloc(float** p) {
  hipMalloc(p, 64);
}
"""
NEW_CALL = "  cudaOccupancyMaxActiveClusters(&clusters, kernel, nullptr);\n"


def _require_tools() -> None:
    missing = [name for name in ("git",) if shutil.which(name) is None]
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        missing.append("pre-commit (pip install pre-commit)")
    if missing:
        reason = "needs " + ", ".join(missing)
        missing(reason)


def clean_env(home: Path) -> dict[str, str]:
    # GIT_* variables leak in when the suite itself runs inside a git hook.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PRE_COMMIT_HOME"] = str(home)
    env["PRE_COMMIT_COLOR"] = "never"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return env


def sh(args: list[str], cwd: Path, env: dict[str, str],
       check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {proc.returncode}:\n"
                             f"{proc.stdout}\n{proc.stderr}")
    return proc


def git_init(path: Path, env: dict[str, str]) -> None:
    sh(["git", "init", "-q", "-b", "main"], path, env)
    sh(["git", "config", "user.email", "test@example.com"], path, env)
    sh(["git", "config", "user.name", "hipport test"], path, env)
    sh(["git", "config", "commit.gpgsign", "false"], path, env)


def head(repo: Path, env: dict[str, str]) -> str:
    return sh(["git", "rev-parse", "HEAD"], repo, env).stdout.strip()


def copy_checkout(target: Path, env: dict[str, str]) -> None:
    """The working tree as it is (uncommitted edits included), without
    ignored files; symlinks kept as symlinks."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=REPO, env=env, capture_output=True)
    if listed.returncode != 0:  # not a git checkout (an sdist): copy, skipping the bulky
        shutil.copytree(REPO, target, symlinks=True, ignore=shutil.ignore_patterns(
            ".git", ".venv", ".toolchain", "__pycache__", ".*_cache", ".hypothesis",
            "build", "dist", "examples-hip", ".hipport-cache", ".benchmarks"))
        return
    for name in listed.stdout.decode().split("\0"):
        source = REPO / name
        if not name or not (source.exists() or source.is_symlink()):
            continue  # deleted in the working tree
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            os.symlink(os.readlink(source), dest)
        else:
            shutil.copy2(source, dest)


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    _require_tools()
    return clean_env(tmp_path_factory.mktemp("pre-commit-home"))


@pytest.fixture(scope="module")
def hipport_repo(tmp_path_factory: pytest.TempPathFactory, env: dict[str, str]) -> Path:
    """A committed copy of this checkout: pre-commit installs from git."""
    path = tmp_path_factory.mktemp("hipport-checkout")
    copy_checkout(path, env)
    assert (path / ".pre-commit-hooks.yaml").is_file()
    git_init(path, env)
    sh(["git", "add", "-A"], path, env)
    sh(["git", "commit", "-qm", "hipport snapshot"], path, env)
    return path


def project(root: Path, env: dict[str, str]) -> Path:
    """A CUDA project with known debt, recorded in its baseline."""
    root.mkdir()
    (root / "src").mkdir()
    (root / "src" / "legacy.cu").write_text(LEGACY)
    (root / "src" / "hip.cpp").write_text(HIP)
    git_init(root, env)
    sh([sys.executable, "-m", "hipport", "check", "--write-baseline", "src"], root, env)
    assert (root / ".hipport-baseline.json").is_file()
    sh(["git", "add", "-A"], root, env)
    sh(["git", "commit", "-qm", "legacy code"], root, env)
    return root


def test_try_repo_refuses_a_call_without_hip_equivalent(tmp_path: Path, env: dict[str, str],
                                                         hipport_repo: Path):
    repo = project(tmp_path / "proj", env)
    legacy = repo / "src" / "legacy.cu"
    legacy.write_text(LEGACY.replace("  return clusters;\n", NEW_CALL + "  return clusters;\n"))
    sh(["git", "add", "-A"], repo, env)
    proc = sh([sys.executable, "-m", "pre_commit", "try-repo", str(hipport_repo),
               "hipport-check"], repo, env, check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert ("src/legacy.cu:7:3: HP901 `cudaOccupancyMaxActiveClusters` has no HIP "
            "equivalent") in output
    assert "hipport check: 1 new violation in 1 file" in output
    # The baseline's own occurrence (line 6) is not reported.
    assert "src/legacy.cu:6:" not in output


def test_installed_hook_guards_commits(tmp_path: Path, env: dict[str, str],
                                       hipport_repo: Path):
    repo = project(tmp_path / "proj", env)
    rev = head(hipport_repo, env)
    config = repo / ".pre-commit-config.yaml"
    config.write_text(f"repos:\n- repo: {hipport_repo}\n  rev: {rev}\n  hooks:\n"
                      "  - id: hipport-check\n")
    sh(["git", "add", "-A"], repo, env)
    sh(["git", "commit", "-qm", "add the hook", "--no-verify"], repo, env)
    sh([sys.executable, "-m", "pre_commit", "install", "--install-hooks"], repo, env)
    legacy = repo / "src" / "legacy.cu"

    def commit(message: str) -> tuple[bool, str]:
        before = head(repo, env)
        sh(["git", "add", "-A"], repo, env)
        proc = sh(["git", "commit", "-qm", message], repo, env, check=False)
        return head(repo, env) != before, proc.stdout + proc.stderr

    # 1. Edits elsewhere in a file with known debt (lines shift too): accepted.
    legacy.write_text("// Copyright header added later\n"
                      + LEGACY.replace("kernel<<<1, 32>>>(d);", "kernel<<<2, 64>>>(d);"))
    committed, output = commit("unrelated edit")
    assert committed, output
    assert "Passed" in output

    # 2. A new call with no HIP equivalent: refused, with the message.
    text = legacy.read_text()
    legacy.write_text(text.replace("  return clusters;\n", NEW_CALL + "  return clusters;\n"))
    committed, output = commit("use clusters")
    assert not committed, output
    assert "Failed" in output
    assert ("src/legacy.cu:8:3: HP901 `cudaOccupancyMaxActiveClusters` has no HIP "
            "equivalent: no HIP equivalent known") in output
    assert "// hipport: ignore[HP901]" in output

    # 3. The same line, suppressed: accepted.
    legacy.write_text(text.replace(
        "  return clusters;\n",
        NEW_CALL.rstrip("\n") + "  // hipport: ignore[HP901]\n  return clusters;\n"))
    committed, output = commit("use clusters, knowingly")
    assert committed, output

    # 4. hip-only: a HIP file must not gain any CUDA call, even a convertible one.
    config.write_text(config.read_text() + "    args: [--policy, hip-only]\n")
    committed, output = commit("hip-only from now on")
    assert committed, output
    hip = repo / "src" / "hip.cpp"
    hip.write_text(HIP.replace("  hipMalloc(p, 64);\n", "  hipMalloc(p, 64);\n"
                                                         "  cudaMalloc(p, 64);\n"))
    committed, output = commit("sneak in CUDA")
    assert not committed, output
    assert "src/hip.cpp:4:3: HP101 [*] `cudaMalloc` -> `hipMalloc`" in output
    assert "policy hip-only" in output
    hip.write_text(HIP.replace("  hipMalloc(p, 64);\n", "  hipMalloc(p, 64);\n"
                                                         "  hipFree(*p);\n"))
    committed, output = commit("HIP only")
    assert committed, output
