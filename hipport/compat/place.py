"""Where a compat run's header is, and the refusals that protect it.

The header is the tree's: ``--compat-header`` when given, else the
``hip_compat.h`` of the folder converted or, when it has none, the one
generated in the nearest folder above it, up to the repository's root (a
folder with ``.git`` or ``.hg``; outside a repository, up to the current
folder).  A subfolder converted on its own, or a check started in one, so
finds the header its parent's conversion wrote.

hipport only ever replaces a header it generated (its first line is
``MARKER``), and never a symbolic link: the user's own ``hip_compat.h``, or
a link to a file elsewhere, is refused before anything is written, in every
mode that writes (``--in-place``, ``-o DIR`` with or without ``--force``)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from hipport.compat import DEFAULT_HEADER, MARKER, header_macro, wrap_macro
from hipport.compat.header import forwarded
from hipport.compat.macro import is_macro_name
from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.files import Selection
from hipport.generated import generated_text
from hipport.header_place import HeaderKind, below, relative
from hipport.header_place import locate as find_header
from hipport.header_place import refuse_unless_ours as refuse
from hipport.jobs import Job


@dataclass(frozen=True)
class Nested:
    """Another header generated for part of the run's tree (a folder
    converted on its own before): it becomes a forwarder to the tree's."""

    source: Path
    target: Path | None  # where the forwarder is written (None: nowhere)
    display: str
    include: str  # the tree's header, relative to this one's folder
    macro: str | None = None  # the macro it selected the AMD build with


@dataclass(frozen=True)
class HeaderPlace:
    path: Path  # in the input tree
    target: Path | None  # where the run writes it (None: nowhere)
    display: str
    # Part of the header's tree is converted (some of its files, a folder
    # below it, --include/--exclude): the names it maps are kept, the run's
    # added.  A run over the whole tree maps exactly the names it uses.
    keep: bool = False
    nested: tuple[Nested, ...] = ()
    # The macro the header on disk selects the AMD build with ("": the
    # default test; None: no header there yet).
    macro: str | None = None


COMPAT_KIND = HeaderKind(MARKER, forwarded, "the compat header",
                         "choose another name with --compat-header")


def refuse_unless_ours(path: Path, writes: bool, where: str = "") -> None:
    refuse(path, COMPAT_KIND, writes, where)


def locate(header: str, roots: list[Path], writes: bool, search: bool = True) -> Path:
    """``--compat-header`` (relative to the first folder converted), or the
    tree's ``hip_compat.h`` (``search``: looked for in the folders above)."""
    path = Path(header or DEFAULT_HEADER)
    if not path.is_absolute():
        path = roots[0] / path
    return find_header(path, COMPAT_KIND, writes, search, above=not header)


def output_place(target: Path) -> None:
    """The header's place in the output tree (``-o DIR``, ``--force`` or not)."""
    refuse_unless_ours(target, True, " (in the output directory)")


def plan_header(header: str, paths: Sequence[Path], roots: list[Path], mode: Mode,
                out: Path | None, jobs: list[Job], selection: Selection,
                display: Callable[[Path], str]) -> tuple[Path, list[Job], HeaderPlace]:
    """The header's place, and the run's jobs without it and without the
    other full headers generated in its tree (``Nested``): those of the run
    and, when only part of the tree is converted, those of its name in the
    folders below the header's."""
    writes = mode in (Mode.IN_PLACE, Mode.MIRROR)
    # An -o tree is whole by itself: its header is never a folder above it.
    path = locate(header, roots, writes, search=mode is not Mode.MIRROR)
    kept: list[Job] = []
    nested: list[Nested] = []
    for job in jobs:
        source = job.source.resolve()
        if source == path:
            continue
        text = generated_text(job.source) if job.convert and job.build_kind is None else None
        if text is None or forwarded(text) is not None:
            kept.append(job)
            continue
        if mode is Mode.MIRROR and job.target is not None:
            output_place(job.target)
        nested.append(Nested(job.source, job.target, job.display, relative(path, source),
                             header_macro(text)))
    folders = [p.resolve() for p in paths if p.is_dir()]
    keep = bool(selection.include or selection.exclude) or not any(
        path.parent.is_relative_to(f) for f in folders)
    if keep and mode in (Mode.IN_PLACE, Mode.DIFF):
        known = {n.source.resolve() for n in nested}
        nested += [Nested(p, p if mode is Mode.IN_PLACE else None, display(p), relative(path, p),
                          header_macro(generated_text(p) or b""))
                   for p in below(path, COMPAT_KIND) if p not in known]
    target: Path | None = None
    if mode is Mode.IN_PLACE:
        target = path
    elif mode is Mode.MIRROR and out is not None:
        if not path.is_relative_to(roots[0]):
            raise UsageError(f"--compat-header {shown_path(path)} is outside the tree; with "
                             "-o DIR it must be inside the folder converted")
        target = out / (roots[0].name if len(paths) > 1 else "") / path.relative_to(roots[0])
        output_place(target)
    on_disk = generated_text(path)
    return path, kept, HeaderPlace(path, target, display(path), keep, tuple(nested),
                                   header_macro(on_disk) if on_disk is not None else None)


def choose_macro(given: str | None, place: HeaderPlace) -> tuple[str, tuple[str, ...]]:
    """The run's macro: --compat-macro, else the one the tree's header
    uses; and the macros of the tree's wraps it re-spells (the header's,
    the forwarded ones', when another is given).  Part of a tree cannot
    change it: the other files' wraps would test the old one."""
    earlier = [m for m in (place.macro, *(n.macro for n in place.nested)) if m is not None]
    if given is None:
        given = place.macro if place.macro is not None and (
            not place.macro or is_macro_name(place.macro)) else ""
    changed = sorted({wrap_macro(m) for m in earlier} - {wrap_macro(given)})
    if changed and place.keep:
        raise UsageError(
            f"{place.display} selects the AMD build with {', '.join(changed)}; --compat-macro "
            f"{wrap_macro(given)} on part of its tree would leave the other files testing "
            f"{changed[0]}: convert the header's whole folder "
            f"({shown_path(place.path.parent)}) to change the macro")
    return given, tuple(changed)
