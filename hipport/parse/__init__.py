"""Front ends that find CUDA references in source bytes."""
from __future__ import annotations

from typing import Any

from hipport.errors import UsageError
from hipport.parse.model import Analysis, Backend, Include, Launch, Reference, Role

__all__ = ["Analysis", "Backend", "Include", "Launch", "Reference", "Role", "get_backend"]

BACKENDS = ("syntax", "semantic")


def get_backend(name: str = "syntax", **options: Any) -> Backend:
    """``options`` are the semantic front end's (see ``parse.clang.SemanticOptions``:
    cuda_path, compile_commands, extra_args, gpu_arch, cuda_includes)."""
    if name == "syntax":
        from hipport.parse.syntax import SyntaxBackend

        return SyntaxBackend()
    if name == "semantic":
        from hipport.parse.clang import SemanticBackend, SemanticOptions

        return SemanticBackend(SemanticOptions(**options))
    raise UsageError(f"unknown front end {name!r} (available: {', '.join(BACKENDS)})")
