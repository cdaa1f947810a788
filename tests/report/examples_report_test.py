"""The report on the bundled examples, against counts made by hand.

The counts are for the CUDA sources (build files excluded: their findings are
checked by test_build_files_join_the_report below and in tests/buildfiles).

How the numbers were counted (grep the sources to check):
  vector_add.cu, 114 lines.  CUDA references in code (comments on lines 3, 4
  and 89 and the string on line 61 do not count): the include on line 12;
  cudaError_t, cudaSuccess, cudaGetErrorString (16, 17, 19); cudaDeviceProp,
  cudaGetDeviceProperties (39, 40); cudaGetDeviceCount (59); cudaSetDevice
  (64); cudaMalloc x3 (74-76); cudaMemcpy + cudaMemcpyHostToDevice on 78 and
  79; cudaGetLastError (86); cudaDeviceSynchronize (87); cudaMemcpy +
  cudaMemcpyDeviceToHost (90); cudaFree x3 (104-106) = 22, all converted, on
  19 distinct lines.  The <<<...>>> launch is kept (valid HIP): no reference.
  reduction.cu, 167 lines.  <cuda.h> (12, converted; driver library), then
  <cuda_runtime.h> (13) becomes a duplicate and its line is removed (HP303,
  not a reference, but a changed line); cudaError_t, cudaSuccess,
  cudaGetErrorString (17, 18, 20); __shfl_down_sync (34, device library);
  __CUDA_ARCH__ twice on line 41 (an unsafe rename: not converted by default);
  cudaRuntimeGetVersion (98); cudaMalloc x3 (115-117); cudaMemcpy (118) +
  cudaMemcpyHostToDevice (119); cudaMemcpyToSymbol (120); cudaMemset x2
  (121-122); cudaOccupancyMaxPotentialBlockSize (127; the string on 132 does
  not count); cudaGetLastError, cudaDeviceSynchronize (136-137); cudaMemcpy +
  cudaMemcpyDeviceToHost on 141/142 and 143/144; cudaFree x3 (159-161);
  cudaDeviceReset (162) = 27 references, 25 converted, 2 unconverted; changed
  lines 12, 13, 17, 18, 20, 34, 98, 115-122, 127, 136, 137, 141-144, 159-162
  = 26.
"""
from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.report.helpers import NO_HAZARD_WEIGHTS, rendered, report_of, validate_report_json

EXAMPLES = REPO / "examples"


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "hipport.toml"
    path.write_text(NO_HAZARD_WEIGHTS)
    return path


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_vector_add_counts(config):
    report = report_of("examples/vector_add", config=config, build_files=False)
    t = report.totals
    assert (t.files, t.lines, t.changed_lines) == (1, 114, 19)
    assert (t.refs, t.refs_converted, t.refs_unconverted) == (22, 22, 0)
    assert t.conversion_rate == 1.0
    assert t.reuse_rate == pytest.approx(95 / 114)
    assert report.ledger == ()
    assert [(lib.library, lib.rocm, lib.refs, lib.refs_converted) for lib in report.libraries] \
        == [("runtime", "hip", 22, 22)]
    # Named from the folder scanned, not from where the report was made.
    assert [f.path for f in report.files] == ["vector_add.cu"]
    # no ledger, hazards weighted 0: review 22 x 0.002 + one file x 0.05, plus 20 %
    assert report.effort.total == pytest.approx((22 * 0.002 + 0.05) * 1.2)


def test_reduction_counts(config):
    report = report_of("examples/reduction", config=config, build_files=False)
    t = report.totals
    assert (t.files, t.lines, t.changed_lines) == (1, 167, 27)
    assert (t.refs, t.refs_converted, t.refs_unconverted) == (25, 25, 0)
    assert t.conversion_rate == pytest.approx(1.0)
    assert t.reuse_rate == pytest.approx(140 / 167)
    libraries = {lib.library: (lib.refs_converted, lib.refs_unconverted, lib.ledger_apis)
                 for lib in report.libraries}
    assert libraries == {"runtime": (23, 0, 0), "device": (1, 0, 0), "driver": (1, 0, 0)}
    # `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600` (reduction.cu:41) is answered
    # for AMD GPUs (HP317: the native double atomicAdd), no longer a 0.02-day review row
    # whose --unsafe-fixes rename was always false.
    assert report.ledger == ()
    assert report.effort.total == pytest.approx((25 * 0.002 + 0.05) * 1.2)


def test_unsafe_fixes_convert_the_review_row(config):
    report = report_of("examples/reduction", config=config, unsafe_fixes=True)
    assert (report.totals.refs_converted, report.totals.refs_unconverted) == (25, 0)
    assert report.ledger == ()
    assert report.settings == {"unsafe-fixes": "on"}


def test_two_examples_add_up(config):
    both = report_of("examples/vector_add", "examples/reduction", config=config, build_files=False)
    t = both.totals
    assert (t.files, t.lines, t.changed_lines, t.refs, t.refs_unconverted) == \
        (2, 281, 46, 47, 0)
    assert [d.name for d in both.directories] == ["reduction", "vector_add"]
    assert [d.tally.lines for d in both.directories] == [167, 114]
    data = validate_report_json(rendered(both, "json"))
    assert data["totals"]["refs_converted"] == 47
    assert data["totals"]["conversion_rate"] == 1.0


def test_build_files_join_the_report(config):
    report = report_of("examples/vector_add", config=config)
    assert sorted(f.path for f in report.files) == [
        "CMakeLists.txt", "Makefile", "vector_add.cu"]
    sources_only = report_of("examples/vector_add", config=config, build_files=False)
    # CUDA references are counted in sources only; build files add changed lines.
    assert report.totals.refs == sources_only.totals.refs == 22
    assert report.totals.changed_lines > sources_only.totals.changed_lines


def test_unchanged_and_changed_lines_add_up_to_the_lines(config):
    """'Lines unchanged / changed' is a split of the original lines, as the
    reuse rate is: whole lines a fix inserts (an include, a build file's
    block) keep their neighbours, so they make no line 'changed' (the
    examples read 828 unchanged / 306 changed of 1134)."""
    report = report_of("examples", config=config)
    tallies = [report.totals, *(d.tally for d in report.directories),
               *(f.tally for f in report.files)]
    assert [t.unchanged_lines + t.changed_lines for t in tallies] == [t.lines for t in tallies]
    assert [t.reuse_rate for t in tallies] == \
        [pytest.approx(1 - t.changed_lines / t.lines) for t in tallies]
    assert report.totals.unchanged_lines == 828
    text = rendered(report, "md")
    assert "| Lines unchanged / changed | 828 / 306 |" in text
