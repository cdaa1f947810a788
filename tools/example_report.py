"""Write examples/REPORT.md, the sample migration report of the bundled
examples (run from anywhere: python -m tools.example_report; --check only
compares).  Paths in the report are relative to the repository root."""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "examples" / "REPORT.md"


def generate() -> str:
    from hipport.report import render
    from hipport.report.run import ReportRequest, make_report

    cwd = os.getcwd()
    os.chdir(REPO)  # display paths are relative to the working directory
    try:
        # jobs=1: the same result on any machine; the examples are small.
        report = make_report(ReportRequest((Path("examples"),), jobs=1))
    finally:
        os.chdir(cwd)
    out = io.StringIO()
    render("md", report, out)
    return out.getvalue()


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(REPO)} is out of date: run python -m "
                  "tools.example_report", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
