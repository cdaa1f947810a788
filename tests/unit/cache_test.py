"""Cached results are identical to fresh ones and never served for other input."""
from __future__ import annotations

from pathlib import Path

from hipport.runner import Job, Mode, RunOptions, run_batch
from hipport.settings import Settings

SOURCE = b"#include <cuda.h>\nvoid f() { cudaFree(p); cudaMadeUp(1); }\n"


def run(tmp_path: Path, data: bytes, **options) -> tuple:
    f = tmp_path / "k.cu"
    f.write_bytes(data)
    [result] = run_batch([Job(f, "k.cu", f)], RunOptions(Mode.IN_PLACE, **options))
    return f.read_bytes(), result


def test_second_run_reads_the_cache_and_matches(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    first_out, first = run(tmp_path, SOURCE)
    entries = list((tmp_path / "cache").rglob("*.pickle"))
    assert len(entries) == 1
    second_out, second = run(tmp_path, SOURCE)
    assert second_out == first_out
    assert (second.findings, second.stats, second.outcome) == (first.findings, first.stats,
                                                               first.outcome)
    assert list((tmp_path / "cache").rglob("*.pickle")) == entries  # nothing new: a hit


def test_settings_and_content_change_the_key(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    run(tmp_path, SOURCE)
    out, _ = run(tmp_path, b"k<<<1, 1>>>();\n" + SOURCE, settings=Settings(launch_syntax="hip"))
    assert b"hipLaunchKernelGGL" in out
    assert len(list((tmp_path / "cache").rglob("*.pickle"))) == 2


def test_damaged_entry_is_recomputed(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    expected, _ = run(tmp_path, SOURCE)
    [entry] = (tmp_path / "cache").rglob("*.pickle")
    entry.write_bytes(entry.read_bytes()[:20])  # truncated
    out, result = run(tmp_path, SOURCE)
    assert out == expected and result.stats.refs_converted == 2


def test_disabled_cache_writes_nothing(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    run(tmp_path, SOURCE, cache=False)
    assert not (tmp_path / "cache").exists()
