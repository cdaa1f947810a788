"""The rich console every command prints through.

rich's own ``Console`` answers a closed pipe (``hipport report | head``) by
exiting with status 1; hipport's CLI turns ``BrokenPipeError`` into a quiet
exit 141, like a Unix tool killed by SIGPIPE, in one place (``hipport.cli``).
``PipeConsole`` hands the error on instead of exiting."""
from __future__ import annotations

from rich.console import Console


class PipeConsole(Console):
    def on_broken_pipe(self) -> None:
        self.quiet = True  # nothing more to print: the reader went away
        raise BrokenPipeError()
