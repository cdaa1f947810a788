"""Compile every translation unit of a converted tree with hipcc, in
parallel, each under a time limit; the result of each, and the first error
of those that fail."""
from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence, TypeVar

from hipport import children
from hipport.errors import HipportError
from hipport.verify.compiler import Compiler
from hipport.verify.copying import remove_tree
from hipport.verify.diagnostics import CompilerError, first_error
from hipport.verify.lines import LineMaps
from hipport.verify.units import Unit

DEFAULT_TIMEOUT = 300.0
DEFAULT_STD = "-std=c++17"
_OUTPUT_KEPT = 20_000  # characters of a failing compiler's output kept for the report
_T = TypeVar("_T")
_R = TypeVar("_R")


@dataclass(frozen=True)
class Settings:
    offload_arch: tuple[str, ...] = ("gfx90a",)
    extra_args: tuple[str, ...] = ()
    syntax_only: bool = False
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 0  # 0: every core


@dataclass(frozen=True)
class Location:
    path: Path
    line: int
    column: int = 0


@dataclass(frozen=True)
class UnitResult:
    unit: Unit
    ok: bool
    seconds: float
    command: tuple[str, ...]
    timed_out: bool = False
    error: CompilerError | None = None
    output: str = ""  # the compiler's stderr (tail), when it failed
    output_cut: int = 0  # characters cut from the start of ``output`` (0: it is whole)
    why: str = ""  # the failure when it is no error of the compiler's (no object written)
    # Where the first error is, in the tree (the header it is in, or the
    # tree's line that included the system header it is in), and in the
    # CUDA original of that file when known.
    location: Location | None = None
    original: Location | None = None

    @property
    def code(self) -> str | None:
        if self.ok:
            return None
        return "HP021" if self.timed_out else "HP020"

    @property
    def message(self) -> str:
        if self.timed_out:
            return "hipcc did not finish within the time limit; stopped"
        if self.why:
            return self.why
        if self.error is not None:
            return self.error.text
        tail = self.output.strip().splitlines()[-1:] or ["no error message"]
        return f"hipcc failed: {tail[0]}"


@dataclass
class Verification:
    compiler: Compiler
    settings: Settings
    results: list[UnitResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[UnitResult]:
        return [r for r in self.results if not r.ok]

    @property
    def summary(self) -> str:
        """``N of M translation units compile with hipcc (HIP 5.2, clang 15.0.6) ...``"""
        n, m = len(self.results) - len(self.failed), len(self.results)
        unit = "translation unit" if m == 1 else "translation units"
        verb = "compiles" if n == 1 and m == 1 else "compile"
        how = ", syntax only" if self.settings.syntax_only else ""
        return (f"{n} of {m} {unit} {verb} with {self.compiler.description} for "
                f"{';'.join(self.settings.offload_arch)}{how} ({self.seconds:.1f} s, "
                f"-j{workers(self.settings, m)})")


def workers(settings: Settings, units: int) -> int:
    wanted = settings.jobs if settings.jobs > 0 else (os.cpu_count() or 1)
    return max(1, min(wanted, units))


def command(compiler: Compiler, settings: Settings, unit: Unit, output: Path) -> list[str]:
    flags = [*unit.flags, *settings.extra_args]
    std = [] if any(f.startswith(("-std=", "--std=")) for f in flags) else [DEFAULT_STD]
    result = [compiler.path, *(f"--offload-arch={a}" for a in settings.offload_arch), *std,
              *flags]
    result += ["-fsyntax-only"] if settings.syntax_only else ["-c", "-o", str(output)]
    return result + ["-x", unit.language, str(unit.path)]


class CannotRun(HipportError):
    """The compiler answered ``--version`` but cannot be started to compile
    (removed, made not executable, or out of processes since): no unit can
    be verified, which is an error of the run, not a finding per unit."""


class Processes:
    """The compilers running now, each in its own process group, so that a
    time limit or Ctrl-C stops hipcc and the Clang processes it started;
    ``stopped`` tells the threads' other work (reading a log) to stop too
    (``hipport.stopping``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen[bytes]] = set()
        self.stopped = threading.Event()

    def run(self, argv: list[str], env: Mapping[str, str], cwd: Path,
            timeout: float) -> tuple[int | None, str]:
        """(exit status, output); status None when it timed out or was
        stopped (the output is then what it printed before).  Raises
        CannotRun when the program cannot be started at all."""
        with self._lock:
            if self.stopped.is_set():
                return None, ""
            try:
                proc = children.start(argv, env, cwd, merge_stderr=True)
            except OSError as exc:
                raise CannotRun(f"cannot run {argv[0]}: {exc.strerror or exc} (it answered "
                                "--version before); verification stopped") from None
            self._running.add(proc)
        try:
            status, out, _ = children.finish(proc, timeout)
            return status, out
        finally:
            with self._lock:
                self._running.discard(proc)

    def stop(self) -> None:
        with self._lock:
            self.stopped.set()
            for proc in self._running:
                children.kill_group(proc)


def verify_units(units: Sequence[Unit], compiler: Compiler, settings: Settings,
                 roots: Sequence[Path], originals: Mapping[Path, Path] | None = None,
                 observe: Callable[[UnitResult], None] | None = None) -> Verification:
    """Compile ``units``; results in the units' order.  ``roots`` are the
    converted tree's folders (an error in a header outside them is shown at
    the tree's line that included it); ``originals`` maps converted files to
    their CUDA originals."""
    verification = Verification(compiler, settings)
    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="hipport-verify-"))
    processes = Processes()
    # hipcc's temporary files go with the scratch folder, also when it is stopped
    env = compiler.environ() | {"TMPDIR": str(scratch)}

    def one(index: int, unit: Unit) -> UnitResult:
        object_file = scratch / f"{index}.o"
        argv = command(compiler, settings, unit, object_file)
        began = time.monotonic()
        status, output = processes.run(argv, env, unit.path.parent, settings.timeout)
        seconds = time.monotonic() - began
        if status == 0 and not settings.syntax_only and not _written(object_file):
            # Exit status 0 and no object: a wrapper that swallowed the failure,
            # a compiler that did not compile.
            kept, cut = kept_output(output)
            return UnitResult(unit, False, seconds, tuple(argv), output=kept, output_cut=cut,
                              location=Location(unit.path, 1),
                              why="error: hipcc exited with status 0 but wrote no object file")
        if status == 0:
            return UnitResult(unit, True, seconds, tuple(argv))
        if status is None:
            return UnitResult(unit, False, seconds, tuple(argv), timed_out=True,
                              location=Location(unit.path, 1))
        error = first_error(output, processes.stopped)
        location = _location(error, unit, roots)
        original = original_of(location, originals or {})
        kept, cut = kept_output(output)
        return UnitResult(unit, False, seconds, tuple(argv), error=error, output=kept,
                          output_cut=cut, location=location, original=original)

    try:
        verification.results += in_parallel(one, units, workers(settings, len(units)),
                                            processes, observe)
    finally:
        remove_tree(scratch)
    verification.seconds = time.monotonic() - started
    return verification


def in_parallel(work: Callable[[int, _T], _R], items: Sequence[_T], at_once: int,
                processes: Processes, observe: Callable[[_R], None] | None = None) -> list[_R]:
    """``work(index, item)`` for every item, ``at_once`` at a time; results
    in the items' order, each heard by ``observe`` as it comes.  Whatever
    ends it early (an error, Ctrl-C) stops every program ``processes`` runs."""
    results: list[_R] = []
    with ThreadPoolExecutor(max(1, at_once)) as pool:
        futures = [pool.submit(work, i, item) for i, item in enumerate(items)]
        try:
            for future in futures:
                result = future.result()
                if observe is not None:
                    observe(result)
                results.append(result)
        except BaseException:
            processes.stop()
            for future in futures:
                future.cancel()
            raise
    return results


def kept_output(output: str) -> tuple[str, int]:
    """The end of a compiler's output, ``_OUTPUT_KEPT`` characters at most
    (the first error is found in the whole of it before), and how many
    characters were cut from its start; a cut output starts by saying so."""
    cut = max(0, len(output) - _OUTPUT_KEPT)
    if not cut:
        return output, 0
    return f"[hipport: the first {cut} characters were cut]\n{output[cut:]}", cut


def _written(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False


def inside(path: Path, roots: Sequence[Path]) -> bool:
    """A file of the converted tree (not ``<built-in>``, not a system header)."""
    if not any(path == r or path.is_relative_to(r) for r in roots):
        return False
    try:
        return path.is_file()
    except OSError:
        return False


def _resolve(name: str, folder: Path) -> Path:
    path = Path(name)
    return Path(os.path.normpath(path if path.is_absolute() else folder / path))


def located(error: CompilerError, resolve: Callable[[str], Path],
            roots: Sequence[Path]) -> Location | None:
    """Where a compiler's error is in the tree: where it is, else (inside a
    system header) the innermost include of the tree, else the first note
    in the tree (the instantiation a template error comes from); None when
    nothing leads there.  ``resolve`` makes a name the compiler printed a
    path."""
    if error.file is None:
        return None
    here = resolve(error.file)
    if inside(here, roots):
        return Location(here, error.line, error.column)
    for place in (*reversed(error.included_from), *error.notes):
        there = resolve(place.file)
        if inside(there, roots):
            return Location(there, place.line)
    return None


def _location(error: CompilerError | None, unit: Unit, roots: Sequence[Path]) -> Location:
    if error is None:
        return Location(unit.path, 1)
    found = located(error, lambda name: _resolve(name, unit.path.parent), roots)
    return found if found is not None else Location(unit.path, 1)


def original_of(location: Location, originals: Mapping[Path, Path],
                maps: LineMaps | None = None) -> Location | None:
    """The same line of the CUDA original (``convert --verify``), when the
    lines match up (``maps``: the comparisons made for earlier lines)."""
    source = originals.get(location.path)
    if source is None:
        return None
    if source == location.path:  # converted in place: the original is gone
        return None
    line = (maps or LineMaps()).original_line(location.path, source, location.line)
    return Location(source, line) if line is not None else None
