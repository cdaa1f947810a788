"""A progress bar on stderr, for long runs in a terminal (nothing otherwise)."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator


class Bar:
    """Advances by one per call (a result); ``expect`` names the total once
    it is known (the files found), until then the bar only pulses."""

    def __init__(self, advance: Callable[[], None] = lambda: None,
                 expect: Callable[[int], None] = lambda _: None) -> None:
        self._advance = advance
        self._expect = expect

    def __call__(self, _: Any) -> None:
        self._advance()

    def expect(self, total: int) -> None:
        self._expect(total)


@contextlib.contextmanager
def progress_bar(label: str, total: int | None, enabled: bool, color: bool = True,
                 first: str = "finding files") -> Iterator[Bar]:
    """Yields the ``Bar`` (doing nothing when not ``enabled``); the bar is
    removed when done.  With ``total`` None it starts at once as ``first``
    and becomes ``label`` when ``Bar.expect`` gives the total: the terminal
    shows something while the files are still being found.  Callers enable
    it only when stderr is a terminal: a pipe or a log file gets nothing."""
    if not enabled:
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True, no_color=not color),
                  transient=True) as bar:
        task = bar.add_task(label if total is not None else first, total=total)
        yield Bar(lambda: bar.advance(task),
                  lambda n: bar.update(task, total=n, description=label))
