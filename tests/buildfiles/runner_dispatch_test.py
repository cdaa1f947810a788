"""The runner converts a build file with the build-file front end."""
from __future__ import annotations

from pathlib import Path

from hipport.converter import RunOptions
from hipport.delivery import Mode
from hipport.jobs import Job, Outcome
from hipport.request import Request
from hipport.runner import run_batch
from hipport.settings import Settings


def test_build_file_job_is_converted_with_offload_arch(tmp_path: Path):
    src = tmp_path / "Makefile"
    src.write_text("NVCCFLAGS := -arch=sm_80\n")
    out = tmp_path / "out" / "Makefile"
    [result] = run_batch([Job(src, "Makefile", out, build_kind="make")],
                         RunOptions(Request((), Mode.MIRROR, Settings(offload_arch=("gfx1100",)))))
    assert result.outcome is Outcome.CONVERTED
    assert out.read_text() == "HIPCCFLAGS := --offload-arch=gfx1100\n"
    assert {f.code for f in result.findings} == {"HP602", "HP603"}
