"""The one way to run hipport over files, for every command.

    request --plan--> Plan (files chosen, every refusal made, nothing written)
            --execute--> Run (results in file order, statistics)

``convert``, ``check``, ``report``, ``verify`` and ``doctor`` build a
``Request``, run it, and print what comes back; none of them chooses files,
builds settings or starts workers on its own."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from hipport.buildfiles.build_facts import build_facts_for
from hipport.converter import RunOptions
from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.filenames import display_path, shown_path
from hipport.files import Selection, Skipped, SourcePath, discover, refuse_link_loop
from hipport.gpus import targets_for
from hipport.jobs import FileResult, Job
from hipport.locking import writing_under
from hipport.request import Request
from hipport.runner import default_workers, drop_project_declared, run_jobs, tally
from hipport.score import RunStats
from hipport.strategy import Finish, Generated, Tree
from hipport.writing import unwritable_folder


@dataclass(frozen=True)
class Plan:
    request: Request
    jobs: tuple[Job, ...]
    skipped: tuple[Skipped, ...]
    options: RunOptions
    finish: Finish | None = None  # the strategy's run-level step
    generated: tuple[Generated, ...] = ()  # files the run generates (no source)

    @property
    def workers(self) -> int:
        limit = self.request.in_process_up_to
        if self.request.jobs > 0:
            return self.request.jobs
        return 1 if limit and len(self.jobs) <= limit else default_workers()


@dataclass(frozen=True)
class Notice:
    """Something about a file that is not a finding (a skipped path, a
    removed temporary file), said before the results."""

    path: Path
    text: str


@dataclass
class Run:
    plan: Plan
    results: list[FileResult]
    notices: list[Notice] = field(default_factory=list)

    @property
    def stats(self) -> RunStats:
        stats = tally(self.results)
        stats.files_skipped += sum(not s.leftover for s in self.plan.skipped)
        return stats


def plan(request: Request) -> Plan:
    """Choose the files and make every refusal; nothing is written."""
    roots = _roots(request.paths)
    out = None
    if request.output is not None:
        out = _output_root(request.output, roots, request.force)
    if request.backup is not None:
        _check_backup_suffix(request.backup, request.mode)
    request.front_end.run_options()  # refuses front-end options that do not go together
    jobs, skipped = collect_jobs(request.paths, request.mode, request.selection, out,
                                 request.names_from_root)
    if request.backup is not None:
        _check_backup_names(jobs, request.backup, request.selection)
    if out is not None:
        _check_output_folders(jobs, out)
    # The GPU targets the tree can be built for (hipport.gpus): every job
    # below, the build files' and the sources', sees the same ones.
    settings = targets_for(request.settings, [j.source for j in jobs
                                              if j.convert and j.build_kind is None])
    # What the build files say that sources need (RDC for HP320, HP618).
    settings = build_facts_for(settings, [j.source for j in jobs if j.build_kind is not None])
    if settings is not request.settings:
        request = replace(request, settings=settings)
    chosen = request.strategy.plan(Tree(request.paths, tuple(roots), request.mode, out,
                                        tuple(jobs), request.selection, request.rules,
                                        request.settings))
    if request.mode in (Mode.IN_PLACE, Mode.MIRROR):
        _check_writable(chosen.jobs, chosen.generated, request.mode)
    options = RunOptions(request, out, chosen.strategy)
    return Plan(request, chosen.jobs, tuple(skipped), options, chosen.finish, chosen.generated)


def execute(planned: Plan, observe: Callable[[FileResult], None] | None = None) -> Run:
    """Run the plan: results in file order, with the names the project
    declares itself resolved across all of them.  ``observe`` sees each
    result as it comes (a progress bar)."""
    request = planned.request
    writes_under: list[Path] = []
    if planned.options.output is not None:
        writes_under = [planned.options.output]
    elif request.mode is Mode.IN_PLACE:
        writes_under = list(request.paths)
    with writing_under(writes_under):
        notices = [_settle(s, request.mode) for s in planned.skipped]
        results = []
        for result in run_jobs(planned.jobs, planned.options, planned.workers):
            if observe is not None:
                observe(result)
            results.append(result)
        results = drop_project_declared(results)
        if planned.finish is not None:
            results = planned.finish(results)
    return Run(planned, results, notices)


def run(request: Request, observe: Callable[[FileResult], None] | None = None) -> Run:
    return execute(plan(request), observe)


def _settle(skipped: Skipped, mode: Mode) -> Notice:
    """Temporary files of a killed run: an in-place run removes them before
    converting (one may be a second name of a source, which would otherwise
    look hard-linked); other modes only say so."""
    if not skipped.leftover:
        return Notice(skipped.path, f"skipped: {skipped.reason}")
    if mode is Mode.IN_PLACE:
        try:
            skipped.path.unlink()
        except OSError as exc:
            return Notice(skipped.path, f"skipped: {skipped.reason}; could not remove it: "
                          f"{exc.strerror}")
        return Notice(skipped.path, f"removed: {skipped.reason}")
    return Notice(skipped.path, f"skipped: {skipped.reason} (safe to delete; the next "
                  "--in-place run removes it)")


def _roots(paths: Sequence[Path]) -> list[Path]:
    for p in paths:
        if not p.exists() and not p.is_symlink():
            raise UsageError(f"{shown_path(p)}: no such file or directory")
        refuse_link_loop(p)
    return [p.resolve() if p.is_dir() else p.resolve().parent for p in paths]


def _output_root(output: Path, roots: list[Path], force: bool) -> Path:
    out = output.resolve()
    for root in roots:
        if out == root or out.is_relative_to(root):
            raise UsageError(f"output directory {shown_path(output)} is inside the input tree "
                             f"{shown_path(root)}; choose a directory outside it")
        if root.is_relative_to(out):
            raise UsageError(f"output directory {shown_path(output)} contains the input "
                             f"{shown_path(root)}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"output {shown_path(output)} exists and is not a directory")
    if out.exists() and any(out.iterdir()) and not force:
        raise UsageError(f"output directory {shown_path(output)} is not empty; use --force to "
                         "write into it anyway")
    return out


def collect_jobs(paths: Sequence[Path], mode: Mode, selection: Selection,
                 out: Path | None = None,
                 names_from_root: bool = False) -> tuple[list[Job], list[Skipped]]:
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
        jobs.append(_job(item, mode, out, several, selection, names_from_root))
    if not jobs and not skipped:
        raise UsageError("no source files found under " + ", ".join(map(shown_path, paths)))
    _refuse_shared_targets(jobs)
    return jobs, skipped


def _refuse_shared_targets(jobs: Sequence[Job]) -> None:
    """Several inputs of one name (``a/src`` and ``b/src``) mirror into the
    same output folder: two files landing on one output path would leave only
    the last one written, so the run stops before anything is written."""
    writer: dict[Path, Path] = {}
    for job in jobs:
        if job.target is None:
            continue
        first = writer.setdefault(job.target, job.source)
        if first != job.source:
            raise UsageError(
                f"{display_path(first)} and {display_path(job.source)} would both be written to "
                f"{display_path(job.target)}: convert their common parent folder, or each "
                "input into an output folder of its own")


def _job(item: SourcePath, mode: Mode, out: Path | None, several: bool,
         selection: Selection, names_from_root: bool) -> Job:
    target = None
    if mode is Mode.MIRROR and out is not None:
        target = out / (item.root.name if several else "") / item.relative
    elif mode is Mode.IN_PLACE:
        target = item.path
    kind = selection.build_kind(item.path.name) if item.is_source else None
    if names_from_root:  # several roots: each file under its root's name
        shown = shown_path(Path(item.root.name) / item.relative if several else item.relative)
    else:
        shown = display_path(item.path)
    return Job(item.path, shown, target, convert=item.is_source, build_kind=kind)


def _check_backup_suffix(suffix: str, mode: Mode) -> None:
    if mode is not Mode.IN_PLACE:
        raise UsageError("--backup only applies to --in-place")
    if not suffix or "/" in suffix or suffix in (".", "..") or "\0" in suffix:
        raise UsageError(f"--backup: {suffix!r} is not a file-name suffix (try .orig)")


def _check_backup_names(jobs: Sequence[Job], suffix: str, selection: Selection) -> None:
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


def _check_writable(jobs: Sequence[Job], generated: Sequence[Generated], mode: Mode) -> None:
    """Every folder the run may write to can be written, before anything is:
    a run stopped by the first file it cannot write leaves the others
    rewritten (in place, sources that include a header it never wrote)."""
    headers = {g.target: g.way_out for g in generated if g.target is not None}
    targets = [*headers, *(j.target for j in jobs if j.target is not None
                           and (j.convert or mode is Mode.MIRROR))]
    asked: set[Path] = set()
    for target in targets:
        if target.parent in asked:
            continue
        asked.add(target.parent)
        found = unwritable_folder(target)
        if found is None:
            continue
        folder, why = found
        way_out = headers.get(target, "make the folder writable, or leave its files out with "
                                      "--exclude")
        raise UsageError(f"cannot write {display_path(target)}: {display_path(folder)}: {why}; "
                         f"nothing was written ({way_out})")


def _check_output_folders(jobs: Sequence[Job], out: Path) -> None:
    """Every folder of the output tree that already exists must be a real
    folder: writing through a symbolic link could land in the input."""
    checked: set[Path] = {out}  # and the folders above it, which are not checked
    for job in jobs:
        if job.target is None:
            continue
        for folder in reversed(job.target.parents):
            if folder in checked:
                continue
            checked.add(folder)
            if not folder.is_relative_to(out):
                continue
            if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
                what = "a symbolic link" if folder.is_symlink() else "not a folder"
                raise UsageError(f"{display_path(folder)} in the output tree is {what}; "
                                 "hipport never writes through it (remove it or choose "
                                 "another output directory)")
            if not folder.exists():
                break  # nothing below it exists either
