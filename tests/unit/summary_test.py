"""The one-line run summary never shows a rate over nothing: a run whose
only file was refused used to print "conversion 100.0%, reuse 100.0% of 0 lines"."""
from __future__ import annotations

from hipport.score import FileStats, RunStats


def test_a_run_that_measured_nothing_shows_no_rate():
    stats = RunStats(files_failed=1)
    assert stats.summary() == ("0 files converted, 0 unchanged, 1 failed · 0 refs converted, "
                               "0 unconverted (nothing measured)")


def test_failed_and_skipped_files_are_said_to_be_left_out_of_the_rates():
    stats = RunStats(files_converted=1, files_failed=1, files_skipped=1)
    stats.add(FileStats(lines=10, changed_lines=2, refs_converted=3, refs_unconverted=1))
    assert stats.summary().endswith("(conversion 75.0%, reuse 80.0% of 10 lines; "
                                    "2 failed or skipped not counted)")


def test_a_clean_run_reads_as_before():
    stats = RunStats(files_converted=1)
    stats.add(FileStats(lines=4, changed_lines=1, refs_converted=1))
    assert stats.summary() == ("1 file converted, 0 unchanged, 0 failed · 1 ref converted, "
                               "0 unconverted (conversion 100.0%, reuse 75.0% of 4 lines)")
