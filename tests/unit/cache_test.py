"""Cached results are identical to fresh ones and never served for other input."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from hipport.cache import FORMAT
from hipport.converter import RunOptions
from hipport.delivery import Mode
from hipport.jobs import Job
from hipport.request import Request
from hipport.runner import run_batch
from hipport.settings import Settings

SOURCE = b"#include <cuda.h>\nvoid f() { cudaFree(p); cudaMadeUp(1); }\n"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / f"{FORMAT}.sqlite3"


def entries(database: Path) -> list[tuple[str, bytes]]:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT key, value FROM results ORDER BY key").fetchall()


def run(tmp_path: Path, data: bytes, workers: int = 1, **options) -> tuple:
    f = tmp_path / "k.cu"
    f.write_bytes(data)
    options = RunOptions(Request((), Mode.IN_PLACE, **options))
    [result] = run_batch([Job(f, "k.cu", f)], options, workers)
    return f.read_bytes(), result


def test_second_run_reads_the_cache_and_matches(tmp_path: Path, cache: Path):
    first_out, first = run(tmp_path, SOURCE)
    stored = entries(cache)
    assert len(stored) == 1
    second_out, second = run(tmp_path, SOURCE)
    assert second_out == first_out
    assert (second.findings, second.stats, second.outcome) == (first.findings, first.stats,
                                                               first.outcome)
    assert entries(cache) == stored  # nothing new: a hit


def test_settings_and_content_change_the_key(tmp_path: Path, cache: Path):
    run(tmp_path, SOURCE)
    out, _ = run(tmp_path, b"k<<<1, 1>>>();\n" + SOURCE, settings=Settings(launch_syntax="hip"))
    assert b"hipLaunchKernelGGL" in out
    assert len(entries(cache)) == 2


def test_damaged_entry_is_recomputed(tmp_path: Path, cache: Path):
    expected, _ = run(tmp_path, SOURCE)
    [(key, value)] = entries(cache)
    with sqlite3.connect(cache) as db:
        db.execute("UPDATE results SET value = ? WHERE key = ?", (value[:20], key))  # truncated
    out, result = run(tmp_path, SOURCE)
    assert out == expected and result.stats.refs_converted == 2
    assert entries(cache) == [(key, value)]  # replaced by the recomputed entry


def test_a_file_that_is_not_a_database_is_replaced(tmp_path: Path, cache: Path):
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"this is not SQLite" * 100)
    out, result = run(tmp_path, SOURCE)
    assert b"hipFree(p)" in out and result.stats.refs_converted == 2
    assert len(entries(cache)) == 1


def test_unwritable_cache_folder_only_costs_speed(tmp_path: Path, monkeypatch):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(blocker / "cache"))
    out, result = run(tmp_path, SOURCE)
    assert b"hipFree(p)" in out and result.stats.refs_converted == 2


def test_disabled_cache_writes_nothing(tmp_path: Path, cache: Path):
    run(tmp_path, SOURCE, cache=False)
    assert not cache.parent.exists()


def test_parallel_runs_fill_and_use_the_cache(tmp_path: Path, cache: Path):
    files = []
    for n in range(12):
        f = tmp_path / f"k{n}.cu"
        f.write_bytes(SOURCE.replace(b"cudaMadeUp(1)", f"cudaMadeUp({n})".encode()))
        files.append(f)
    out = tmp_path / "out"
    jobs = [Job(f, f.name, out / f.name) for f in files]
    first = run_batch(jobs, RunOptions(Request((), Mode.MIRROR)), workers=2)
    assert len(entries(cache)) == 12
    written = {f.name: (out / f.name).stat().st_mtime_ns for f in files}
    second = run_batch(jobs, RunOptions(Request((), Mode.MIRROR)), workers=2)
    assert [(r.display, r.findings, r.stats) for r in second] == \
        [(r.display, r.findings, r.stats) for r in first]
    # A re-run into the same folder leaves outputs that are already right alone.
    assert {f.name: (out / f.name).stat().st_mtime_ns for f in files} == written
    assert all(b"hipFree(p)" in (out / f.name).read_bytes() for f in files)


def test_an_entry_round_trips_exactly():
    from hipport.api import convert_source
    from hipport.cache import decode, encode
    from hipport.edits import Applicability

    source = (b"#include <cuda_runtime.h>\n__global__ void k(float* v) {\n"
              b"  int lane = threadIdx.x % 32;\n  v[0] = __shfl_down_sync(0xffffffff, v[0], 1);\n"
              b"}\nvoid f(int* h) { cudaMemcpyToSymbol(sym, h, 4); cudaMadeUp(); }\n"
              + "// caf\u00e9\n".encode())
    result = convert_source(source, Settings(unsafe_fixes=True))
    assert {f.finding.fix.applicability for f in result.findings if f.finding.fix} >= \
        {Applicability.SAFE, Applicability.UNSAFE}
    entry = decode(encode(result))
    assert entry is not None
    assert entry.findings == result.findings and hash(entry.findings) == hash(result.findings)
    assert (entry.output, entry.stats, entry.declared) == (result.output, result.stats,
                                                            result.declared)
    assert decode(encode(result)[:-5]) is None  # truncated: not served


def test_mirror_rerun_recopies_only_what_differs(tmp_path: Path, cache: Path):
    notes, data = tmp_path / "notes.txt", tmp_path / "table.bin"
    notes.write_text("read me\n")
    data.write_bytes(b"\x00" * 5000)
    out = tmp_path / "out"
    jobs = [Job(notes, "notes.txt", out / "notes.txt", convert=False),
            Job(data, "table.bin", out / "table.bin", convert=False)]
    run_batch(jobs, RunOptions(Request((), Mode.MIRROR)))
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    (out / "table.bin").write_bytes(b"\x00" * 4999 + b"\x01")  # same size, other bytes
    run_batch(jobs, RunOptions(Request((), Mode.MIRROR)))
    assert (out / "notes.txt").stat().st_mtime_ns == before["notes.txt"]  # left alone
    assert (out / "table.bin").read_bytes() == data.read_bytes()  # repaired


def test_two_runs_at_once_share_the_cache(tmp_path: Path, cache: Path):
    import os
    import subprocess
    import sys

    trees = []
    for name in ("a", "b"):
        tree = tmp_path / name
        tree.mkdir()
        for n in range(40):
            (tree / f"k{n}.cu").write_bytes(SOURCE.replace(b"(1)", f"({name}{n})".encode()))
        trees.append(tree)
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache.parent))
    runs = [subprocess.Popen([sys.executable, "-m", "hipport", "convert", str(tree), "-q",
                              "-j", "2"], env=env, stderr=subprocess.PIPE)
            for tree in trees]
    for run in runs:
        _, err = run.communicate(timeout=120)
        assert run.returncode == 0, err.decode()
    assert len(entries(cache)) == 80  # neither run's entries were lost to the other


def test_results_of_other_code_are_never_served(tmp_path: Path, monkeypatch, cache: Path):
    """An edited checkout (same version number) must not get old results."""
    # A private cache (the fixture): another test's entry for the same bytes
    # would be served and nothing stored.
    from hipport.cache import ResultCache

    f = tmp_path / "k.cu"
    f.write_bytes(b"void f(void* p) { cudaFree(p); }\n")
    stored: list[str] = []
    real_put = ResultCache.put
    monkeypatch.setattr(ResultCache, "put",
                        lambda self, key, blob: (stored.append(key), real_put(self, key, blob)))
    run_batch([Job(f, "k.cu")], RunOptions(Request((), Mode.DRY_RUN)))
    assert stored
    asked: list[str] = []
    real_get = ResultCache.get
    monkeypatch.setattr(ResultCache, "get",
                        lambda self, key: (asked.append(key), real_get(self, key))[1])
    run_batch([Job(f, "k.cu")], RunOptions(Request((), Mode.DRY_RUN)))
    assert asked == stored  # the same code finds its entry
    asked.clear()
    earlier = set(stored)
    monkeypatch.setattr("hipport.converter.code_digest", lambda: "other code")
    run_batch([Job(f, "k.cu")], RunOptions(Request((), Mode.DRY_RUN)))
    assert asked and not set(asked) & earlier


def test_old_catalogue_versions_are_pruned_and_the_used_ones_kept(tmp_path: Path, monkeypatch):
    """Every catalogue (an upgrade, a set of user rules) wrote a 5 MB file
    that nothing removed: 64 of them, 304 MB, on the machine this was found on."""
    from hipport.cachedir import KEEP_VERSIONS
    from hipport.table import bundled_table

    folder = tmp_path / "cache"
    monkeypatch.setenv("HIPPORT_CACHE_DIR", str(folder))
    folder.mkdir()
    stale = [folder / f"catalogue-{i:032x}.marshal" for i in range(KEEP_VERSIONS + 3)]
    for age, path in enumerate(stale):
        path.write_bytes(b"x")
        os.utime(path, (1_000_000 - age, 1_000_000 - age))  # stale[0] used last
    other = folder / "results-2.sqlite3"
    other.write_bytes(b"y")
    os.utime(other, (1, 1))
    bundled_table.__wrapped__()  # the bundled catalogue, compiled and stored
    kept = sorted(p.name for p in folder.glob("catalogue-*.marshal"))
    assert len(kept) == KEEP_VERSIONS
    assert {p.name for p in stale[:KEEP_VERSIONS - 1]} < set(kept)
    assert other.exists()
