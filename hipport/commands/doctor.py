"""`hipport doctor`: run the probes, print the diagnosis, exit 0/1."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from hipport.errors import UsageError


@dataclass(frozen=True)
class DoctorRequest:
    paths: tuple[Path, ...] = ()
    format: str = "text"
    root: Path | None = None


def run_doctor(req: DoctorRequest) -> int:
    from hipport.doctor import FORMATS, System, diagnose

    if req.root is not None and not req.root.is_dir():
        raise UsageError(f"--root {req.root}: not a directory")
    diagnosis = diagnose(System.current(), req.root, req.paths)
    FORMATS[req.format](diagnosis, sys.stdout)
    return diagnosis.exit_code
