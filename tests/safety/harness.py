"""A tree of many CUDA files and a `hipport convert` subprocess to interrupt."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hipport.writing import is_temporary

REPO = Path(__file__).resolve().parents[2]
SEEDS = sorted(p for root in (REPO / "examples", REPO / "tests" / "cases")
               for p in root.rglob("*.cu*") if p.suffix in (".cu", ".cuh")
               and not p.name.endswith(".hip.cu"))
# A file hipport leaves alone: in-place runs must not touch it at all.
PLAIN = b"#pragma once\nint plain(int x);\n"


def make_tree(root: Path, count: int) -> dict[str, bytes]:
    """``count`` files (all but every tenth convertible), relative path -> bytes."""
    files: dict[str, bytes] = {}
    for i in range(count):
        if i % 10 == 9:
            data = PLAIN.replace(b"plain", f"plain{i}".encode())
        else:
            seed = SEEDS[i % len(SEEDS)]
            data = seed.read_bytes().replace(b"main(", f"main_{i}(".encode())
            data += f"\n// copy {i}: cudaDeviceSynchronize();\n".encode()
        rel = f"d{i % 7}/f{i:04d}{'.cuh' if i % 5 == 4 else '.cu'}"
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
        files[rel] = data
    return files


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def command(root: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "hipport", "convert", str(root), "--in-place", "-q",
            "--no-cache", *extra]


def run(root: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(root, *extra), capture_output=True, text=True,
                          env=_env(root), timeout=600)


@dataclass
class Interrupted:
    returncode: int
    stderr: str


def interrupt(root: Path, delay: float, sig: int, *extra: str) -> Interrupted:
    """Start an in-place run, send ``sig`` after ``delay`` seconds (to the
    whole process group, workers included), and wait for it to end."""
    proc = subprocess.Popen(command(root, *extra), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=_env(root),
                            start_new_session=True)
    time.sleep(delay)
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass  # already finished
    _, err = proc.communicate(timeout=600)
    return Interrupted(proc.returncode, err)


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["HIPPORT_CACHE_DIR"] = str(root.parent / "cache")
    env["PYTHONPATH"] = str(REPO)
    return env


@dataclass
class State:
    original: int = 0
    converted: int = 0
    temporary: int = 0


def classify(root: Path, before: dict[str, bytes], after: dict[str, bytes]) -> State:
    """Every file is its original bytes or its complete conversion, every
    generated file (the polyfill header) the one the whole run writes;
    anything else in the tree is one of hipport's recognisable temporary
    files."""
    state = State()
    now = snapshot(root)
    for rel, data in now.items():
        if rel in before:
            if data == before[rel]:
                state.original += 1
            else:
                assert data == after[rel], f"{rel}: neither original nor converted"
                state.converted += 1
        elif rel in after:  # a header the run generates: whole, or not there
            assert data == after[rel], f"{rel}: a generated file, but not the whole of it"
            state.converted += 1
        else:
            assert is_temporary(Path(rel).name), f"unexpected file {rel}"
            state.temporary += 1
    missing = set(before) - set(now)
    assert not missing, f"files lost: {sorted(missing)[:5]}"
    return state
