"""What is reported, and how it is counted."""
from __future__ import annotations

from pathlib import Path

from hipport.api import convert_source
from hipport.converter import RunOptions
from hipport.delivery import Mode
from hipport.jobs import Job
from hipport.request import Request
from hipport.runner import run_batch, tally
from hipport.settings import Settings


def codes(source: str, **settings) -> list[tuple[str, int]]:
    return [(f.code, f.location.line) for f in convert_source(source, Settings(**settings)).findings
            if not f.applied]


def test_unknown_cuda_looking_name_is_an_unmapped_finding():
    result = convert_source("void f() {\n  cudaNotARealApi(1);\n}\n")
    [finding] = result.findings
    assert (finding.code, finding.location.line, finding.location.column) == ("HP900", 2, 3)
    assert finding.finding.cuda_name == "cudaNotARealApi"
    assert result.stats.refs_unconverted == 1 and result.stats.refs_converted == 0


def test_unsupported_api_is_a_ledger_finding_and_left_unchanged():
    source = "void f() { cudaOccupancyMaxActiveClusters(&n, k, &cfg); cudaFree(p); }"
    result = convert_source(source)
    assert result.output == source.replace("cudaFree", "hipFree").encode()
    assert ("HP901", 1) in codes(source)
    ledger = [f for f in result.findings if f.code == "HP901"]
    assert ledger[0].finding.cuda_name == "cudaOccupancyMaxActiveClusters"
    assert result.stats.refs_converted == 1 and result.stats.refs_unconverted == 1


def test_unsafe_rename_is_reported_and_applied_only_on_request():
    source = "#if defined(__CUDA_ARCH__)\nint x;\n#endif\n"
    assert convert_source(source).output == source.encode()
    assert ("HP904", 1) in codes(source)
    out = convert_source(source, Settings(unsafe_fixes=True)).output.decode()
    assert out == "#if defined(__HIP_DEVICE_COMPILE__)\nint x;\n#endif\n"


def test_rocm_version_target_withholds_newer_names():
    # hipDeviceGraphMemTrim: not in the HIP 5.2 headers, in 5.7's and 6.4's.
    source = "void f() { cudaDeviceGraphMemTrim(0); }"
    old = convert_source(source, Settings(rocm_version=(5, 2)))
    assert [f.code for f in old.findings if f.code.startswith("HP9")] == ["HP905"]
    assert old.output == source.encode()
    assert b"hipDeviceGraphMemTrim" in convert_source(source).output


def test_parse_error_is_reported_and_the_rest_converted():
    result = convert_source("void f() { cudaFree(p); }\nint x = ((;\nvoid g() { cudaFree(q); }\n")
    assert result.output.count(b"hipFree") == 2
    assert any(f.code == "HP001" for f in result.findings)


def test_names_declared_elsewhere_in_the_project_are_not_unmapped(tmp_path: Path):
    (tmp_path / "check.h").write_text("#define CUDA_CHECK(x) (x)\n")
    (tmp_path / "main.cu").write_text('#include "check.h"\nvoid f() { CUDA_CHECK(cudaFree(p)); }\n')
    jobs = [Job(p, p.name) for p in sorted(tmp_path.iterdir())]
    results = run_batch(jobs, RunOptions(Request((), Mode.DRY_RUN)))
    all_codes = [f.code for r in results for f in r.findings]
    assert "HP900" not in all_codes
    run = tally(results)
    assert run.totals.refs_converted == 1 and run.totals.refs_unconverted == 0


def test_reuse_rate_counts_changed_lines():
    result = convert_source("int a;\nvoid f() { cudaFree(p); cudaFree(q); }\nint b;\nint c;\n")
    assert result.stats.lines == 4 and result.stats.changed_lines == 1
