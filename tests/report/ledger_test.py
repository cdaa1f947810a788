"""The ledger and library summary on a fixture tree counted by hand.

tests/report/fixtures/legacy (run with --rocm-version 5.7):
  blas/gemm.cu, 11 lines: <cublas_v2.h> (2), cudaGraph_t and cudaGraphExec_t
  (4), cublasHandle_t (6), cublasCreate (7), cublasDestroy (10) convert;
  cudaGraphInstantiateParams (4) and cudaGraphInstantiateWithParams (9) need
  ROCm 6.2; cudaInitDevice (8) has no HIP equivalent.  6 converted, 3 not,
  changed lines 2, 4, 6, 7, 10.
  core/device_setup.cu, 25 lines: two includes (5, 6), cudaProfilerStart (12,
  22; converted, deprecated in ROCm) and cudaDeviceReset (24) convert;
  cudaInitDevice (10, 21), cudaProfilerInitialize and cudaKeyValuePair (11,
  removed from CUDA), __CUDA_ARCH__ (14, unsafe rename) and the unknown
  cudaFrobnicateWidgets (23) do not.  The comment and the string naming
  cudaInitDevice do not count.  5 converted, 6 not, changed lines 5, 6, 12,
  22, 24.
"""
from __future__ import annotations

import csv
import io

import pytest

from tests.report.helpers import (
    FIXTURES,
    NO_HAZARD_WEIGHTS,
    rendered,
    report_of,
    validate_report_json,
)

LEGACY = FIXTURES / "legacy"

# (name, status, code, library, uses, files, first locations, days, priority)
EXPECTED_LEDGER = [
    ("cudaInitDevice", "unsupported", "HP901", "runtime", 3, 2,
     ("blas/gemm.cu:8", "core/device_setup.cu:10", "core/device_setup.cu:21"), 1.0 + 3 * 0.1,
     "high"),
    ("cudaKeyValuePair", "removed", "HP903", "runtime", 1, 1, ("core/device_setup.cu:11",),
     1.1, "high"),
    ("cudaProfilerInitialize", "removed", "HP903", "runtime", 1, 1,
     ("core/device_setup.cu:11",), 1.1, "high"),
    ("cudaFrobnicateWidgets", "unmapped", "HP900", "unknown", 1, 1,
     ("core/device_setup.cu:23",), 0.55, "medium"),
    ("cudaProfilerStart", "deprecated", "HP902", "runtime", 2, 1,
     ("core/device_setup.cu:12", "core/device_setup.cu:22"), 0.25 + 2 * 0.02, "medium"),
    ("cudaGraphInstantiateParams", "rocm-too-old", "HP905", "runtime", 1, 1,
     ("blas/gemm.cu:4",), 0.27, "medium"),
    ("cudaGraphInstantiateWithParams", "rocm-too-old", "HP905", "runtime", 1, 1,
     ("blas/gemm.cu:9",), 0.27, "medium"),
    ("__CUDA_ARCH__", "review", "HP904", "device", 1, 1, ("core/device_setup.cu:14",), 0.12,
     "low"),
]


@pytest.fixture
def report(tmp_path, monkeypatch):
    config = tmp_path / "effort.toml"
    config.write_text(NO_HAZARD_WEIGHTS)
    monkeypatch.chdir(LEGACY)
    return report_of(".", config=config, rocm_version="5.7")


def test_totals(report):
    t = report.totals
    assert (t.files, t.lines, t.changed_lines) == (2, 36, 10)
    assert (t.refs, t.refs_converted, t.refs_unconverted) == (20, 11, 9)
    assert t.conversion_rate == pytest.approx(11 / 20)
    assert t.reuse_rate == pytest.approx(26 / 36)
    assert report.settings == {"rocm-version": "5.7"}


def test_ledger_rows(report):
    got = [(r.cuda_name, r.status, r.code, r.library, r.occurrences, r.files, r.locations,
            pytest.approx(r.days), r.priority) for r in report.ledger]
    assert got == [(*row[:7], pytest.approx(row[7]), row[8]) for row in EXPECTED_LEDGER]


def test_ledger_rows_carry_hip_names_and_actions(report):
    rows = {r.cuda_name: r for r in report.ledger}
    assert rows["cudaProfilerStart"].hip_name == "hipProfilerStart"
    assert "deprecat" in (rows["cudaProfilerStart"].note or "")
    assert rows["cudaInitDevice"].hip_name is None
    assert "No HIP equivalent" in rows["cudaInitDevice"].action
    assert "--rules" in rows["cudaFrobnicateWidgets"].action
    assert "hipGraphInstantiateWithParams" in rows["cudaGraphInstantiateWithParams"].action


def test_libraries(report):
    got = {lib.library: (lib.rocm, lib.files, lib.refs_converted, lib.refs_unconverted,
                         lib.ledger_apis) for lib in report.libraries}
    assert got == {
        "runtime": ("hip", 2, 7, 7, 6),
        "cublas": ("hipblas", 1, 4, 0, 0),
        "device": ("hip", 1, 0, 1, 1),
        "unknown": (None, 1, 0, 1, 1),
    }
    assert sum(lib.refs for lib in report.libraries) == report.totals.refs


def test_directories_and_files(report):
    assert [(d.name, d.tally.lines, d.tally.changed_lines, d.tally.refs_unconverted)
            for d in report.directories] == [("blas", 11, 5, 3), ("core", 25, 5, 6)]
    assert [(f.path, f.tally.refs_converted) for f in report.files] == \
        [("blas/gemm.cu", 6), ("core/device_setup.cu", 5)]


def test_effort_adds_up(report):
    """Each API left unconverted is a blocker line of its own; the converted
    ones with a caveat are review, one line per status; review of the
    conversion is billed per changed file (and, with the pinned weights, per
    automatic conversion too); the range scales blockers and review."""
    ledger = sum(row[7] for row in EXPECTED_LEDGER)
    assert ledger == pytest.approx(5.0)
    subtotal = ledger + 11 * 0.002 + 2 * 0.05
    assert report.effort.subtotal == pytest.approx(subtotal)
    assert report.effort.total == pytest.approx(subtotal * 1.2)
    items = {line.item: line for line in report.effort.lines}
    blockers = [line for line in report.effort.lines if line.blocker]
    assert [line.item for line in blockers] == [
        "cudaInitDevice: unsupported API", "cudaKeyValuePair: removed API",
        "cudaProfilerInitialize: removed API", "cudaFrobnicateWidgets: unmapped API",
        "cudaGraphInstantiateParams: rocm-too-old API",
        "cudaGraphInstantiateWithParams: rocm-too-old API"]
    assert all(line.stage == "compile" for line in blockers)
    assert items["cudaInitDevice: unsupported API"].locations == (
        "blas/gemm.cu:8", "core/device_setup.cu:10", "core/device_setup.cu:21")
    assert items["1 API converted with a caveat (deprecated)"].days == pytest.approx(0.29)
    assert items["review and test the files the conversion changes"].quantity == 2
    assert items["review the automatic conversions one by one"].quantity == 11
    assert report.effort.blocker_days == pytest.approx(5.0 - 0.29 - 0.12)
    assert report.effort.low == pytest.approx(
        (report.effort.blocker_days * 0.5 + (subtotal - report.effort.blocker_days) * 0.5) * 1.2)
    assert report.effort.high == pytest.approx(
        (report.effort.blocker_days * 2.5 + (subtotal - report.effort.blocker_days) * 2.0) * 1.2)


def test_without_a_rocm_target_graph_names_convert(tmp_path, monkeypatch):
    monkeypatch.chdir(LEGACY)
    report = report_of(".")
    statuses = {r.cuda_name: r.status for r in report.ledger}
    assert "cudaGraphInstantiateWithParams" not in statuses
    assert (report.totals.refs_converted, report.totals.refs_unconverted) == (13, 7)


def test_csv_is_the_ledger(report):
    rows = list(csv.DictReader(io.StringIO(rendered(report, "csv"))))
    assert [r["cuda_name"] for r in rows] == [row[0] for row in EXPECTED_LEDGER]
    assert rows[0]["first_locations"] == "blas/gemm.cu:8 core/device_setup.cu:10 " \
        "core/device_setup.cu:21"
    assert rows[0]["occurrences"] == "3" and rows[0]["priority"] == "high"


def test_json_matches_the_model(report):
    data = validate_report_json(rendered(report, "json"))
    assert data["schema"] == "hipport-report/2"
    assert [e["cuda_name"] for e in data["ledger"]] == [row[0] for row in EXPECTED_LEDGER]
    assert data["totals"]["refs_unconverted"] == 9
    assert data["totals"]["outcomes"] == {"converted": 2, "unchanged": 0, "failed": 0,
                                          "skipped": 0}
