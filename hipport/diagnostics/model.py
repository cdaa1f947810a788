"""The shape of a diagnostic code."""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    summary: str
    severity: Severity
    # Long form for `hipport explain` and docs: why it matters, what to do,
    # an example. Markdown.
    explanation: str = ""
