"""Front ends that find CUDA references in source bytes."""
from __future__ import annotations

from hipport.errors import UsageError
from hipport.parse.model import Analysis, Backend, Include, Launch, Reference, Role

__all__ = ["Analysis", "Backend", "Include", "Launch", "Reference", "Role", "get_backend"]

BACKENDS = ("syntax",)


def get_backend(name: str = "syntax") -> Backend:
    if name == "syntax":
        from hipport.parse.syntax import SyntaxBackend

        return SyntaxBackend()
    raise UsageError(f"unknown front end {name!r} (available: {', '.join(BACKENDS)})")
