"""Running the compat strategy over a tree, for the compat tests."""
from __future__ import annotations

from pathlib import Path

from hipport.compat.strategy import CompatStrategy
from hipport.delivery import Mode
from hipport.jobs import FileResult
from hipport.pipeline import run
from hipport.request import Request
from hipport.settings import Settings


def compat_tree(src: Path, out: Path | None = None, mode: Mode = Mode.MIRROR,
                macro: str | None = None, **settings: object) -> list[FileResult]:
    """``src`` converted with --strategy compat (into ``out`` when mirroring)."""
    request = Request((src,), mode, Settings(**settings),  # type: ignore[arg-type]
                      output=out, cache=False, jobs=1, force=True,
                      strategy=CompatStrategy(macro=macro))
    return run(request).results
