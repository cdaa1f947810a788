"""Portability hazards (HP4xx-HP5xx): what renaming cannot fix."""
from __future__ import annotations

from hipport.diagnostics.model import Code

HAZARDS_CODES: tuple[Code, ...] = ()
