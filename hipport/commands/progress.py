"""A progress bar on stderr, for long runs in a terminal (nothing otherwise)."""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator


@contextlib.contextmanager
def progress_bar(label: str, total: int, enabled: bool,
                 color: bool = True) -> Iterator[Callable[[Any], None]]:
    """Yields the callback that advances the bar by one (a no-op when not
    ``enabled``); the bar is removed when done.  Callers enable it only when
    stderr is a terminal: a pipe or a log file gets nothing."""
    if not enabled:
        yield lambda _: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True, no_color=not color), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda _: bar.advance(task)
