"""`hipport report` shows both strategies side by side."""
from __future__ import annotations

import io
import json
from pathlib import Path

from hipport.report import render
from hipport.report.run import ReportRequest, make_report

SOURCE = ("#include <cuda_runtime.h>\n"
          "void f(float **p) {\n  cudaMalloc(p, 4);\n  cudaFree(*p);\n  __syncwarp();\n}\n")


def test_both_strategies_are_measured(tmp_path: Path):
    (tmp_path / "k.cu").write_text(SOURCE)
    report = make_report(ReportRequest((tmp_path,), cache=False, jobs=1))
    rewrite, compat = report.strategies
    assert (rewrite.strategy, compat.strategy) == ("rewrite", "compat")
    assert rewrite.lines_changed == 3  # the include and two calls
    assert compat.lines_changed == 3 + compat.header_lines  # include, #if, #endif
    assert rewrite.names_mapped == compat.names_mapped == 3  # with cuda_runtime.h
    assert rewrite.unconverted == compat.unconverted == ("__syncwarp",)
    assert not (tmp_path / "hip_compat.h").exists()  # measured, never written
    out = io.StringIO()
    render("json", report, out)
    rows = json.loads(out.getvalue())["strategies"]
    assert [r["strategy"] for r in rows] == ["rewrite", "compat"]
    out = io.StringIO()
    render("md", report, out)
    assert "## Strategies side by side" in out.getvalue()
