"""A violation: one finding that fails the check, located and fingerprinted.

It is listed like any finding (``hipport.output``): a violation is a
``Reported`` finding that the policy selected."""
from __future__ import annotations

from hipport.output.model import UNUSED_SUPPRESSION, Reported

Violation = Reported

__all__ = ["UNUSED_SUPPRESSION", "Violation"]
