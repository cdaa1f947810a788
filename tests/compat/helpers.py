"""Running the compat strategy over a tree, for the compat tests."""
from __future__ import annotations

from pathlib import Path

from hipport.pipeline import Request, run
from hipport.runner import FileResult, Mode
from hipport.settings import Settings


def compat_tree(src: Path, out: Path | None = None, mode: Mode = Mode.MIRROR,
                **settings: object) -> list[FileResult]:
    """``src`` converted with --strategy compat (into ``out`` when mirroring)."""
    request = Request((src,), mode, Settings(strategy="compat", **settings),  # type: ignore[arg-type]
                      output=out, cache=False, jobs=1, force=True)
    return run(request).results
