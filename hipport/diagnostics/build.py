"""Build-file conversion (HP6xx): CMake and Makefiles."""
from __future__ import annotations

from hipport.diagnostics.model import Code

BUILD_CODES: tuple[Code, ...] = ()
