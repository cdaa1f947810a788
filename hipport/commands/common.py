"""What every command shares: choosing files and building settings."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.files import Selection, Skipped, SourcePath, discover
from hipport.runner import Job, Mode
from hipport.settings import Settings
from hipport.table.schema import parse_version


def roots_of(paths: Sequence[Path]) -> list[Path]:
    for p in paths:
        if not p.exists() and not p.is_symlink():
            raise UsageError(f"{p}: no such file or directory")
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


def collect_jobs(paths: Sequence[Path], mode: Mode, selection: Selection,
                 out: Path | None = None) -> tuple[list[Job], list[Skipped]]:
    """One job per selected file (and, when mirroring, per other file)."""
    several = len(paths) > 1
    jobs: list[Job] = []
    skipped: list[Skipped] = []
    seen: set[Path] = set()  # a file named twice (or also under a named folder) runs once
    for item in discover(paths, selection, with_others=mode is Mode.MIRROR, avoid=out):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        if item.path in seen:
            continue
        seen.add(item.path)
        if item.link and mode is Mode.IN_PLACE:  # rewriting would replace the link by a file
            skipped.append(Skipped(item.path, "symlink; its target is converted where it lives"))
            continue
        jobs.append(_job(item, mode, out, several, selection))
    if not jobs and not skipped:
        raise UsageError("no source files found under " + ", ".join(map(str, paths)))
    return jobs, skipped


def _job(item: SourcePath, mode: Mode, out: Path | None, several: bool,
         selection: Selection) -> Job:
    target = None
    if mode is Mode.MIRROR and out is not None:
        target = out / (item.root.name if several else "") / item.relative
    elif mode is Mode.IN_PLACE:
        target = item.path
    kind = selection.build_kind(item.path.name) if item.is_source else None
    return Job(item.path, display_path(item.path), target, convert=item.is_source,
               build_kind=kind)


def display_path(path: Path) -> str:
    """``path`` for messages and reports: relative to the current directory
    when inside it, escaped by ``hipport.filenames.shown``."""
    try:
        return shown_path(path.relative_to(Path.cwd()))
    except ValueError:
        return shown_path(path)


def build_settings(launch_syntax: str = "keep", unsafe_fixes: bool = False,
                   rocm_version: str | None = None, fast: bool = False) -> Settings:
    return Settings(
        launch_syntax=launch_syntax,
        unsafe_fixes=unsafe_fixes,
        rocm_version=parse_version(rocm_version) if rocm_version else None,
        stability_check=not fast,
    )


def offload_targets(value: str | None) -> tuple[str, ...]:
    """``--offload-arch "gfx90a;gfx942"`` -> a validated tuple (the default if None)."""
    from hipport.buildfiles import DEFAULT_OFFLOAD_ARCH, BuildOptions, parse_offload_arch

    if value is None:
        return DEFAULT_OFFLOAD_ARCH
    targets = parse_offload_arch(value)
    try:
        BuildOptions(targets)
    except ValueError as exc:
        raise UsageError(f"--offload-arch: {exc}") from None
    return targets


def check_backup_names(jobs: Sequence[Job], suffix: str, selection: Selection) -> None:
    """``--backup SUFFIX`` must not name a backup after a file of the run or
    after something the next run would convert (``foo.c`` + ``u`` is
    ``foo.cu``): refused before anything is written."""
    sources = {job.source for job in jobs}
    clashes = [job for job in jobs if job.convert and (
        job.source.with_name(job.source.name + suffix) in sources
        or selection.selects(job.source.name + suffix))]
    if clashes:
        shown = ", ".join(f"{j.display} -> {display_path(j.source) + suffix}"
                          for j in clashes[:3])
        more = f" and {len(clashes) - 3} more" if len(clashes) > 3 else ""
        raise UsageError(f"--backup {suffix}: backups would be named like files hipport "
                         f"converts ({shown}{more}); choose a suffix such as .orig")


def check_output_parents(jobs: Sequence[Job], out: Path) -> None:
    """Every folder of the output tree that already exists must be a real
    folder: writing through a symbolic link could land in the input."""
    checked: set[Path] = {out}
    for job in jobs:
        if job.target is None:
            continue
        for folder in reversed(job.target.parents):
            if folder in checked or not folder.is_relative_to(out):
                continue
            checked.add(folder)
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                what = "a symbolic link" if folder.is_symlink() else "not a folder"
                raise UsageError(f"{display_path(folder)} in the output tree is {what}; "
                                 "hipport never writes through it (remove it or choose "
                                 "another output directory)")
            if not folder.exists():
                break  # nothing below it exists either
