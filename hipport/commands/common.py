"""What every command shares: choosing files and building settings."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from hipport.errors import UsageError
from hipport.files import Selection, Skipped, SourcePath, discover
from hipport.runner import Job, Mode
from hipport.settings import Settings
from hipport.table.schema import parse_version


def roots_of(paths: Sequence[Path]) -> list[Path]:
    return [p.resolve() if p.is_dir() else p.resolve().parent for p in paths]


def check_output_dir(output: Path, roots: list[Path], force: bool) -> Path:
    out = output.resolve()
    for root in roots:
        if out == root or out.is_relative_to(root):
            raise UsageError(f"output directory {output} is inside the input tree {root}; "
                             "choose a directory outside it")
        if root.is_relative_to(out):
            raise UsageError(f"output directory {output} contains the input {root}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"output {output} exists and is not a directory")
    if out.exists() and any(out.iterdir()) and not force:
        raise UsageError(f"output directory {output} is not empty; use --force to write "
                         "into it anyway")
    return out


def collect_jobs(paths: Sequence[Path], mode: Mode, selection: Selection,
                 out: Path | None = None) -> tuple[list[Job], list[Skipped]]:
    """One job per selected file (and, when mirroring, per other file)."""
    several = len(paths) > 1
    jobs: list[Job] = []
    skipped: list[Skipped] = []
    for item in discover(paths, selection, with_others=mode is Mode.MIRROR, avoid=out):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        jobs.append(_job(item, mode, out, several))
    if not jobs and not skipped:
        raise UsageError("no source files found under " + ", ".join(map(str, paths)))
    return jobs, skipped


def _job(item: SourcePath, mode: Mode, out: Path | None, several: bool) -> Job:
    target = None
    if mode is Mode.MIRROR and out is not None:
        target = out / (item.root.name if several else "") / item.relative
    elif mode is Mode.IN_PLACE:
        target = item.path
    return Job(item.path, display_path(item.path), target, convert=item.is_source)


def display_path(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def build_settings(launch_syntax: str = "keep", unsafe_fixes: bool = False,
                   rocm_version: str | None = None, fast: bool = False) -> Settings:
    return Settings(
        launch_syntax=launch_syntax,
        unsafe_fixes=unsafe_fixes,
        rocm_version=parse_version(rocm_version) if rocm_version else None,
        stability_check=not fast,
    )
