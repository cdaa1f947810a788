"""The one-line run summary never shows a rate over nothing: a run whose
only file was refused used to print "conversion 100.0%, reuse 100.0% of 0 lines"."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.compat.strategy import CompatStrategy
from hipport.report.model import Tally
from hipport.score import FileStats, RunStats, reuse_rate
from hipport.settings import Settings

COMPAT_STRATEGY = CompatStrategy()


def test_a_run_that_measured_nothing_shows_no_rate():
    stats = RunStats(files_failed=1)
    assert stats.summary() == ("0 files converted, 0 unchanged, 1 failed · 0 refs converted, "
                               "0 unconverted (nothing measured)")


def test_failed_and_skipped_files_are_said_to_be_left_out_of_the_rates():
    stats = RunStats(files_converted=1, files_failed=1, files_skipped=1)
    stats.add(FileStats(lines=10, changed_lines=2, refs_converted=3, refs_unconverted=1,
                        edited_lines=2))
    assert stats.summary().endswith("(conversion 75.0%, reuse 80.0% of 10 lines; "
                                    "2 failed or skipped not counted)")


def test_a_clean_run_reads_as_before():
    stats = RunStats(files_converted=1)
    stats.add(FileStats(lines=4, changed_lines=1, refs_converted=1, edited_lines=1))
    assert stats.summary() == ("1 file converted, 0 unchanged, 0 failed · 1 ref converted, "
                               "0 unconverted (conversion 100.0%, reuse 75.0% of 4 lines)")


# -- reuse is over the original lines kept (issue 24) -------------------------

SOURCE = "#include <cuda_runtime.h>\nint x;\n#include <cublas_v2.h>\n"


def test_lines_added_around_the_code_keep_it():
    # compat adds 5 lines to these 3 and changes none: "reuse -66.7% of 3 lines".
    result = convert_source(SOURCE, strategy=COMPAT_STRATEGY)
    assert result.output.count(b"\n") == 8
    stats = RunStats(files_converted=1)
    stats.add(result.stats)
    assert stats.summary().endswith("(conversion 100.0%, reuse 100.0% of 3 lines)")
    tally = Tally.of(result.stats, 0)
    assert (tally.unchanged_lines, tally.reuse_rate) == (3, 1.0)


def test_an_inserted_line_keeps_its_neighbours_and_an_edited_one_is_not_kept():
    source = "#include <stdio.h>\nint a;\n__global__ void k(int *p) { p[0] = 1; }\n"
    result = convert_source(source, Settings())
    assert result.output == b"#include <hip/hip_runtime.h>\n" + source.encode()
    assert (result.stats.lines, result.stats.edited_lines) == (3, 0)  # was 1: #include <stdio.h>
    result = convert_source(source + "void f(cudaStream_t s);\n", Settings())
    assert (result.stats.lines, result.stats.edited_lines) == (4, 1)
    assert reuse_rate(result.stats.edited_lines, result.stats.lines) == 0.75


@pytest.mark.parametrize("edited, lines", [(0, 3), (3, 3), (4, 3), (9, 1), (0, 0)])
def test_reuse_is_a_share(edited, lines):
    assert 0.0 <= reuse_rate(edited, lines) <= 1.0
