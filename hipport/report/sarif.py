"""The report as SARIF 2.1.0: every finding a result, every code used a rule
(the pieces are ``hipport.sarif``'s, shared with `hipport check`)."""
from __future__ import annotations

import json
from typing import Any, TextIO

from hipport.report.model import Report, files_findings
from hipport.sarif_log import document, finding_result, rule


def sarif_dict(report: Report) -> dict[str, Any]:
    codes = sorted({f.code for _, f in files_findings(report.files)})
    index = {code: i for i, code in enumerate(codes)}
    return document(report.version, [rule(c) for c in codes],
                    [finding_result(path, f, index[f.code])
                     for path, f in files_findings(report.files)])


def render(report: Report, out: TextIO) -> None:
    json.dump(sarif_dict(report), out, indent=2, allow_nan=False)
    out.write("\n")
