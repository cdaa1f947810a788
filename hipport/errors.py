"""The one user-facing error type (and its specialisations)."""
from __future__ import annotations


class HipportError(Exception):
    """An expected failure with a full-sentence message for the user."""


class MappingFileError(HipportError):
    def __init__(self, path: str, message: str, line: int | None = None) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line


class UsageError(HipportError):
    pass
