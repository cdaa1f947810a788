"""What a build of the converted tree left: the basis of ``hipport report
--verify``.

The report converts the tree into a scratch folder and hands it to a
*builder*: a function that builds the converted tree and returns what
failed, as ``BuildError`` values whose paths are relative to the folder it
was given (so they are the report's own file names).  The report then bills
from these errors, grouped by cause, instead of from what the findings
predict.  The report never imports a builder (builders live above it:
``hipport.built``); the command passes one in."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# Where a build error was met, in the order a build meets them.
STAGES = ("configure", "compile", "link")
_QUOTED_NUMBER = re.compile(r"\b\d+\b")


@dataclass(frozen=True)
class BuildError:
    message: str  # as the compiler or the build system said it, without "error: "
    path: str | None = None  # relative to the converted tree; None: no file (a link)
    line: int = 0
    stage: str = "compile"

    @property
    def cause(self) -> str:
        """What errors with the same fix share: the message, its numbers
        (sizes, counts, line numbers) left out."""
        return _QUOTED_NUMBER.sub("N", self.message)

    @property
    def where(self) -> str:
        if self.path is None:
            return ""
        return f"{self.path}:{self.line}" if self.line else self.path


@dataclass(frozen=True)
class BuildOutcome:
    """``how``: what was built, with what, and how it went (one line);
    ``failed``/``passed``: the report's names of the files whose build
    failed or passed (translation units, or every file of a target);
    ``build_files``: the tree's own build files were run, so build-file
    findings are judged by the build too."""

    how: str
    errors: tuple[BuildError, ...] = ()
    failed: frozenset[str] = frozenset()
    passed: frozenset[str] = frozenset()
    build_files: bool = False


# (the converted tree, worker processes, seconds per compile) -> what the build left
Builder = Callable[[Path, int, float], BuildOutcome]
