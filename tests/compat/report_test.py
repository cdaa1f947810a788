"""`hipport report` shows both strategies side by side."""
from __future__ import annotations

import io
import json
from pathlib import Path

from hipport.report import render
from hipport.report.run import ReportRequest, make_report

SOURCE = ("#include <cuda_runtime.h>\n"
          "void f(float **p) {\n  cudaMalloc(p, 4);\n  cudaFree(*p);\n  __prof_trigger(0);\n}\n")


def test_both_strategies_are_measured(tmp_path: Path):
    (tmp_path / "k.cu").write_text(SOURCE)
    report = make_report(ReportRequest((tmp_path,), cache=False, jobs=1))
    rewrite, compat = report.strategies
    assert (rewrite.strategy, compat.strategy) == ("rewrite", "compat")
    assert rewrite.lines_changed == 3  # the include and two calls
    assert compat.lines_changed == 3 + compat.header_lines  # include, #if, #endif
    assert rewrite.names_mapped == compat.names_mapped == 3  # with cuda_runtime.h
    assert rewrite.unconverted == compat.unconverted == ("__prof_trigger",)
    assert not (tmp_path / "hip_compat.h").exists()  # measured, never written
    out = io.StringIO()
    render("json", report, out)
    rows = json.loads(out.getvalue())["strategies"]
    assert [r["strategy"] for r in rows] == ["rewrite", "compat"]
    out = io.StringIO()
    render("md", report, out)
    assert "## Strategies side by side" in out.getvalue()


def test_a_second_compat_run_says_nothing_was_left_to_convert(tmp_path: Path):
    """It said `0 files converted, 4 unchanged ... 2 refs converted`: the
    names the header maps count as converted, but this run converted none."""
    from click.testing import CliRunner

    from hipport.cli import cli

    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n"
                                   "void f(void *p) { cudaFree(p); cudaSomethingNew(p); }\n")
    first = CliRunner().invoke(cli, ["convert", str(tmp_path), "--strategy", "compat",
                                     "--in-place", "-q"])
    # the generated header is not one of the user's files: not counted
    assert "1 file converted" in first.stderr and "2 refs converted" in first.stderr
    again = CliRunner().invoke(cli, ["convert", str(tmp_path), "--strategy", "compat",
                                     "--in-place", "-q"])
    summary = again.stderr.strip().splitlines()[-1]
    assert "files converted" not in summary and "refs converted" not in summary
    assert summary == ("nothing left to convert in 1 file · 2 CUDA references mapped by "
                       "the compat header · 1 CUDA reference remains for a person")
