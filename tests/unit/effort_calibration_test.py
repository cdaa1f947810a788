"""benchmarks/effort_calibration.py: the measures docs/effort.md publishes."""
from __future__ import annotations

import pytest

from benchmarks.effort_calibration import (
    PROGRAMS,
    changed_lines,
    fit,
    log_errors,
    measured_days,
    spearman,
)
from tests.trees import write_tree


def test_lines_changed_by_hand_count_a_replaced_block_once(tmp_path):
    before = write_tree(tmp_path / "a", {"k.cu": "a\nb\nc\nd\n", "gone.h": "x\ny\n"})
    after = write_tree(tmp_path / "b", {"k.cu": "a\nB\nc\nd\nnew\n", "new.h": "1\n2\n3\n"})
    # k.cu: one line replaced, one inserted; gone.h: 2 lines; new.h: 3 lines
    assert changed_lines(before, after) == 1 + 1 + 2 + 3
    assert changed_lines(before, before) == 0


def test_spearman_with_ties():
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([3, 2, 1], [10, 20, 30]) == pytest.approx(-1.0)
    assert spearman([0, 0, 1, 2], [0, 0, 5, 9]) == pytest.approx(1.0)
    assert spearman([1, 1, 1], [1, 2, 3]) == 0.0


def test_measured_days_and_the_fit():
    assert measured_days(4, 2) == pytest.approx((2 * 1.0 + 4 * 0.25) / 8)
    rows = [{"features": {"compile": x, "review": 0.0}, "measured_days": 0.5 * x}
            for x in (1.0, 2.0, 4.0)]
    factors = fit(rows)
    assert factors["compile"] == pytest.approx(0.5, abs=1e-3)


def test_build_logs_become_errors_of_the_program(tmp_path):
    log = ("/w/converted/rocm-6.4/p/src/a.cu:12:5: error: use of undeclared identifier 'x'\n"
           "clang++: error: unknown argument: '-gencode'\n"
           "ld.lld: error: undefined symbol: f(int)\n"
           "CMake Error at /w/converted/rocm-6.4/p/cmake/m.cmake:23 (target_link_libraries):\n"
           "  Target \"t\" links to:\n\n    roc::hipblas\n"
           "Makefile:8: *** recipe commences before first target.  Stop.\n")
    errors = log_errors(log, ["/rocm-6.4/p/", "/tree/"])
    assert [(e.path, e.line, e.stage) for e in errors] == [
        ("src/a.cu", 12, "compile"), (None, 0, "compile"), (None, 0, "link"),
        ("cmake/m.cmake", 23, "configure"), ("Makefile", 8, "configure")]
    assert errors[3].message.startswith('Target "t" links to: roc::hipblas')


def test_programs_come_from_several_repositories():
    assert len(PROGRAMS) >= 10
    assert len({p.repo for p in PROGRAMS}) >= 5
    assert len({p.name for p in PROGRAMS}) == len(PROGRAMS)
