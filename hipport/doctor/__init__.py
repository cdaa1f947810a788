"""`hipport doctor`: is this machine ready to build and run HIP code, and
does it have what a given tree needs?  Pure probes over an explicit
``System`` (environment, PATH search, command runner, filesystem root)."""
from __future__ import annotations

from hipport.doctor.diagnose import diagnose
from hipport.doctor.model import Check, Diagnosis, Status
from hipport.doctor.render import FORMATS
from hipport.doctor.system import System

__all__ = ["Check", "Diagnosis", "FORMATS", "Status", "System", "diagnose"]
