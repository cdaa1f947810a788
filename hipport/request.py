"""The one options object of a run (``Request``), from the command line down:
``pipeline.plan`` resolves it, every process of the run reads it
(``converter.RunOptions``), and the conversion settings inside it
(``settings.Settings``) reach every rule."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.files import Selection
from hipport.parse import get_backend
from hipport.parse.model import Backend
from hipport.rewrite import RewriteStrategy
from hipport.settings import Settings
from hipport.strategy import Strategy


@dataclass(frozen=True)
class FrontEnd:
    """Which front end reads the sources, and its options."""

    semantic: bool = False
    compile_commands: Path | None = None
    cuda_path: Path | None = None
    extra_args: tuple[str, ...] = ()
    cuda_includes: tuple[str, ...] = ()

    def run_options(self) -> tuple[str, tuple[tuple[str, Any], ...]]:
        """(backend name, backend options) for ``RunOptions``."""
        if not (self.semantic or self.compile_commands):
            if self.cuda_path or self.extra_args or self.cuda_includes:
                raise UsageError("--cuda-path, --extra-arg and --cuda-include need --semantic "
                                 "(or -p/--compile-commands)")
            return "syntax", ()
        options: dict[str, Any] = {"extra_args": self.extra_args,
                                   "cuda_includes": self.cuda_includes}
        if self.compile_commands is not None:
            options["compile_commands"] = str(self.compile_commands)
        if self.cuda_path is not None:
            options["cuda_path"] = str(self.cuda_path)
        return "semantic", tuple(sorted(options.items()))

    def backend(self) -> Backend:
        """The front end itself (hipport.parse)."""
        name, options = self.run_options()
        return get_backend(name, **dict(options))


@dataclass(frozen=True)
class Request:
    """One run of hipport over files, as every command asks for it: what to
    read, what to make of it and where it goes.  The command line builds it
    from what the user typed (``hipport.values``); library callers build it
    themselves; ``pipeline.plan`` takes it from there."""

    paths: tuple[Path, ...]
    mode: Mode = Mode.DRY_RUN
    settings: Settings = Settings()
    selection: Selection = Selection()
    front_end: FrontEnd = FrontEnd()
    rules: tuple[str, ...] = ()  # user mapping files
    jobs: int = 0  # worker processes; 0: every core
    # At most this many files run in this process (0: no such limit): for a
    # pre-commit hook, starting workers costs more than it saves.
    in_process_up_to: int = 0
    cache: bool = True
    debug: bool = False
    output: Path | None = None  # Mode.MIRROR: the output root
    force: bool = False  # a non-empty output root; read-only and hard-linked files
    backup: str | None = None  # Mode.IN_PLACE: keep originals as NAME + suffix
    # How files are named in results: relative to the current folder, or to
    # the folder the user named (reports that travel between machines; with
    # several folders, each file under its folder's name).
    names_from_root: bool = False
    # How the files are converted (hipport.strategy): rewrite, compat, ...
    strategy: Strategy = RewriteStrategy()
