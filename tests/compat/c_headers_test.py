"""The catalogue's ``cxx_only`` marks are true: every HIP header not marked
compiles in a C translation unit on each oracle that has it (the compat
header includes the unmarked ones in C files too)."""
from __future__ import annotations

from pathlib import Path

from hipport.table import load_table
from tests.toolchain import compile_hip


def _c_usable_headers() -> list[str]:
    headers: set[str] = set()
    for entry in load_table():
        alt = entry
        while alt is not None:
            if alt.kind == "header" and alt.hip and not alt.cxx_only:
                headers.add(alt.hip)
            alt = alt.older
    return sorted(headers)


def test_unmarked_hip_headers_compile_as_c(tmp_path: Path, hip_oracle):
    headers = _c_usable_headers()
    assert "hipsparse/hipsparse.h" in headers and "hipfft/hipfftXt.h" not in headers
    lines = ["#include <hip/hip_runtime.h>"]
    for header in headers:
        lines += [f"#if __has_include(<{header}>)", f"#include <{header}>", "#endif"]
    unit = tmp_path / "all_headers.c"
    unit.write_text("\n".join(lines + ["int main(void) { return 0; }", ""]))
    proc = compile_hip(unit, oracle=hip_oracle, language="c")
    assert proc.returncode == 0, proc.stderr[-3000:]
