"""`hipport verify --build`: configure and build each project of a converted
tree with its own build files, outside the tree, under a time limit, and
report each failure at its source line.

    paths --find_projects--> projects (a folder with a build file of a
          system that can build, and none of that system's above it)
          --toolchain.find_toolchain--> cmake, make beside the chosen hipcc
          --build_projects--> BuildVerification (a result per project)

Each build system says how its projects are built
(``BuildSystem.build_plan``); this module runs the steps, each in the
sandbox of ``hipport.verify.sandbox`` (the build runs the repository's own
code), reads their output (``buildlog``) and places each problem in the
tree, and in the CUDA original when ``convert --verify`` knows it.  Every
project is built from a copy of its tree (``copying``), in a scratch folder
removed afterwards (or a ``--build-dir``, locked while it is built in): the
user's tree is never written to."""
from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from threading import Event
from typing import Callable, Mapping, Sequence

from hipport.buildfiles import build_systems
from hipport.buildfiles.languages import CXX_SUFFIXES
from hipport.buildfiles.makelog import MakeFailure
from hipport.buildfiles.project import BuildSettings, Configuration, Target
from hipport.buildfiles.system import BuildSystem
from hipport.errors import UsageError
from hipport.locking import writing_under
from hipport.stopping import raise_if_stopped
from hipport.verify.buildflags import build_files_in, unreadable
from hipport.verify.buildlog import (
    CompileError,
    ConfigureError,
    LinkError,
    LinkFailed,
    ShellError,
    read_log,
)
from hipport.verify.compiler import Compiler
from hipport.verify.copying import Skipped, copy_tree, remove_tree
from hipport.verify.diagnostics import CompilerError
from hipport.verify.lines import LineMaps
from hipport.verify.sandbox import Sandbox, sandbox_env
from hipport.verify.session import (
    Location,
    Processes,
    in_parallel,
    inside,
    kept_output,
    located,
    original_of,
)
from hipport.verify.toolchain import Toolchain
from hipport.verify.units import unit_paths
from hipport.words import plural

DEFAULT_BUILD_TIMEOUT = 1800.0
NO_GPU_CODE = "HP660"
_NAMED_UNITS = 3  # GPU sources named by an HP660 finding; the rest counted
_EMPTY = '""'  # an option's empty value, as it is written
MARKER = ".hipport-build"  # in a --build-dir hipport made
_LINKS_SHOWN = 10  # undefined symbols listed per link step; the rest counted
_SKIPPED = frozenset({"CMakeFiles", "__pycache__", "node_modules"})
_MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
_WORD = re.compile(r"[A-Za-z_]\w*")
_SOURCE_SUFFIXES = CXX_SUFFIXES | {".c", ".cu", ".hip"}
_NAME = re.compile(r"[^\w.+-]", re.ASCII)  # in a folder hipport names
_BUSY = "two builds in one --build-dir would write over each other's files; give each its own"


@dataclass(frozen=True)
class Project:
    root: Path  # the folder of its top build file (resolved)
    system: BuildSystem
    top: Path  # the verified folder it lies in (resolved)
    also: tuple[str, ...] = ()  # names of other systems with a project here, not built

    @property
    def build_file(self) -> Path:
        files = self.system.files_in(self.root)
        return files[0] if files else self.root


@dataclass(frozen=True)
class Settings:
    offload_arch: tuple[str, ...]  # the default GPU targets (a build file's own win)
    timeout: float = DEFAULT_BUILD_TIMEOUT  # per step
    jobs: int = 0  # 0: every core
    extra_args: tuple[str, ...] = ()
    build_dir: Path | None = None  # kept; else a temporary folder, removed
    arch_from_tree: bool = False  # build files name their own GPU targets
    arch_given: bool = False  # --offload-arch
    configuration: Configuration = Configuration()  # the user's -D, --make-var


@dataclass(frozen=True)
class StepResult:
    name: str
    argv: tuple[str, ...]
    status: int | None  # None: stopped at the time limit
    seconds: float
    output: str  # its end, _OUTPUT_KEPT characters at most
    output_cut: int = 0


@dataclass(frozen=True)
class BuildFinding:
    code: str  # HP657 configure, HP658 build, HP659 link, HP021 time limit
    message: str
    step: str
    location: Location | None = None
    original: Location | None = None
    target: str | None = None
    unit: Path | None = None  # the translation unit of a compile error
    error: CompilerError | None = None
    text: str = ""  # the lines of the output it was read from


@dataclass
class ProjectResult:
    project: Project
    folder: Path
    steps: list[StepResult] = field(default_factory=list)
    targets: tuple[Target, ...] = ()
    findings: list[BuildFinding] = field(default_factory=list)
    seconds: float = 0.0
    gpu_sources: int | None = None  # HIP sources the build compiled (None: not known)

    @property
    def ok(self) -> bool:
        """Every step succeeded, and compiled GPU code where the project has
        some (a build of its CPU backend alone is no port: HP660)."""
        return self.built and not any(f.code == NO_GPU_CODE for f in self.findings)

    @property
    def built(self) -> bool:
        return bool(self.steps) and all(s.status == 0 for s in self.steps)

    @property
    def failed_step(self) -> StepResult | None:
        return next((s for s in self.steps if s.status != 0), None)


@dataclass
class BuildVerification:
    compiler: Compiler
    toolchain: Toolchain
    settings: Settings
    jobs: int
    projects: list[ProjectResult] = field(default_factory=list)
    seconds: float = 0.0
    outside: int = 0  # translation units in no project
    skipped: list[Skipped] = field(default_factory=list)  # entries of the trees not copied

    @property
    def failed(self) -> list[ProjectResult]:
        return [p for p in self.projects if not p.ok]

    @property
    def findings(self) -> list[tuple[ProjectResult, BuildFinding]]:
        return [(p, f) for p in self.projects for f in p.findings]

    @property
    def targets(self) -> tuple[int, int] | None:
        """(built, defined), over the projects whose system tells."""
        known = [t for p in self.projects for t in p.targets]
        return (sum(t.built for t in known), len(known)) if known else None

    @property
    def summary(self) -> str:
        """``5 of 6 projects build with hipcc (HIP 6.4, clang 21.1.8) for gfx90a; ...``"""
        n, m = len(self.projects) - len(self.failed), len(self.projects)
        verb = "builds" if n == 1 and m == 1 else "build"
        titles = sorted({p.project.system.title for p in self.projects})
        arch = ";".join(self.settings.offload_arch)
        if self.settings.arch_from_tree:
            arch = f"their build files' GPU targets, default {arch}"
        text = (f"{n} of {plural(m, 'project')} {verb} ({' and '.join(titles)}) with "
                f"{self.compiler.description} for {arch}")
        targets = self.targets
        if targets is not None:
            text += f"; {targets[0]} of {plural(targets[1], 'target')} built"
        return text + f" ({self.seconds:.1f} s, -j{self.jobs})"


def find_projects(paths: Sequence[Path], only: str | None = None) -> list[Project]:
    """The projects under ``paths`` (folders), outermost first: for each
    system that can build, a folder with its build file and none above it
    in the path given.  A folder that is a project of two systems is built
    by the first of the registry (``only`` names the one to use)."""
    systems = [s for s in build_systems().values()
               if s.programs and (only is None or s.name == only)]
    found: dict[Path, Project] = {}
    for given in paths:
        top = given.resolve()
        for folder, roots in _walk(given, systems):  # as given: errors name what was typed
            if roots:
                also = tuple(s.name for s in roots[1:])
                found.setdefault(folder.resolve(), Project(folder.resolve(), roots[0], top,
                                                           also))
    return sorted(found.values(), key=lambda p: p.root)


def _walk(top: Path, systems: list[BuildSystem]
          ) -> list[tuple[Path, list[BuildSystem]]]:
    """(folder, the systems it is a project root of), top-down; a folder
    below a project of a system is no root of that system."""
    result: list[tuple[Path, list[BuildSystem]]] = []
    pending: list[tuple[Path, frozenset[str]]] = [(top, frozenset())]
    while pending:
        folder, covered = pending.pop()
        roots = [s for s in systems if s.name not in covered and build_files_in(s, folder)]
        result.append((folder, roots))
        below = covered | {s.name for s in roots}
        try:
            subfolders = sorted(p for p in folder.iterdir() if p.is_dir()
                                and not p.is_symlink() and not p.name.startswith(".")
                                and p.name not in _SKIPPED)
        except OSError as error:
            raise unreadable(folder, error) from None
        pending += [(sub, below) for sub in reversed(subfolders)]
    return result


def build_projects(projects: Sequence[Project], compiler: Compiler, toolchain: Toolchain,
                   settings: Settings, environ: Mapping[str, str],
                   originals: Mapping[Path, Path] | None = None,
                   observe: Callable[[ProjectResult], None] | None = None
                   ) -> BuildVerification:
    """Build every project; results in the projects' order.  ``environ``
    is the user's environment: in the sandbox the build gets only what
    ``sandbox_env`` keeps of it."""
    jobs = settings.jobs if settings.jobs > 0 else (os.cpu_count() or 1)
    at_once = max(1, min(jobs, len(projects)))
    verification = BuildVerification(compiler, toolchain, settings, jobs)
    started = time.monotonic()
    build = BuildSettings(toolchain.tools, settings.offload_arch, max(1, jobs // at_once),
                          settings.extra_args, settings.arch_given, settings.configuration)
    names = _folder_names(projects)
    with contextlib.ExitStack() as held:
        scratch = _scratch(settings.build_dir)
        if settings.build_dir is None:
            held.callback(remove_tree, scratch)
        else:
            held.enter_context(writing_under([scratch], _BUSY))
        # the copies first, one per tree, before anything runs
        copies: dict[Path, Path] = {}
        for project in projects:
            if project.top not in copies:
                copy = scratch / "source" / f"{len(copies) + 1}-{_safe(project.top.name)}"
                if copy.exists():  # of an earlier run in the same --build-dir
                    remove_tree(copy)
                verification.skipped += copy_tree(project.top, copy)
                copies[project.top] = copy
        env, sandbox = _environment(compiler, toolchain, environ, scratch)
        processes = Processes()

        def one(index: int, project: Project) -> ProjectResult:
            return _build(project, scratch / names[index], copies[project.top], build, env,
                          settings.timeout, processes, originals or {}, sandbox)

        verification.projects += in_parallel(one, projects, at_once, processes, observe)
    verification.seconds = time.monotonic() - started
    return verification


def _environment(compiler: Compiler, toolchain: Toolchain, environ: Mapping[str, str],
                 scratch: Path) -> tuple[dict[str, str], Sandbox | None]:
    """Every step's environment and sandbox.  The steps' ``TMPDIR`` is in
    the scratch folder, with or without a sandbox: what a compiler leaves
    there (CMake's ``CMakeHIPCompilerId-*.o``) goes with it."""
    home, tmp = scratch / "home", scratch / "tmp"
    for folder in (home, tmp):
        folder.mkdir(exist_ok=True)
    tools = toolchain.tools
    sandbox = toolchain.sandbox(environ, [scratch])
    if sandbox is not None:
        env = sandbox_env(environ, dict(tools.env), home, tmp)
    else:
        env = dict(environ) | compiler.environ() | dict(tools.env) | {"TMPDIR": str(tmp)}
    return {k: v for k, v in env.items()
            if k not in _MAKE_VARIABLES and k not in tools.unset}, sandbox


def _safe(name: str) -> str:
    """A folder name any build tool takes (CMake takes no newline, ``;``,
    ``#``, ``"`` or ``\\`` in a path)."""
    return _NAME.sub("_", name) or "tree"


def _scratch(build_dir: Path | None) -> Path:
    if build_dir is None:
        return Path(tempfile.mkdtemp(prefix="hipport-build-"))
    try:
        build_dir.mkdir(parents=True, exist_ok=True)
        (build_dir / MARKER).touch()
    except OSError as error:
        raise UsageError(f"--build-dir {build_dir}: {error.strerror or error}") from None
    return build_dir


def check_build_dir(build_dir: Path, tops: Sequence[Path]) -> None:
    """``--build-dir`` must lie outside the verified trees, and be empty or
    one hipport made: a build writes there, and a user's files are never
    written over."""
    folder = build_dir.resolve()
    for top in tops:
        top = top.resolve()
        if folder == top or folder.is_relative_to(top) or top.is_relative_to(folder):
            raise UsageError(f"--build-dir {build_dir} is inside the tree it builds ({top}) "
                             "or holds it: give a folder outside it")
    try:
        entries = list(folder.iterdir()) if folder.is_dir() else []
    except OSError as error:
        raise unreadable(build_dir, error) from None
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--build-dir {build_dir} is not a folder")
    if entries and not (folder / MARKER).is_file():
        raise UsageError(f"--build-dir {build_dir} is not empty and was not made by hipport "
                         f"(no {MARKER} in it): give an empty or new folder")


def _folder_names(projects: Sequence[Project]) -> list[str]:
    """A build folder's name per project, the same from run to run (a
    --build-dir is built in again): its tree, its path there, its system."""
    names: list[str] = []
    for project in projects:
        relative = project.root.relative_to(project.top).as_posix()
        name = project.top.name or "tree"
        if relative != ".":
            name += "-" + relative.replace("/", "_")
        name = _safe(f"{name}-{project.system.name}")
        taken = sum(n == name or n.startswith(name + ".") for n in names)
        names.append(f"{name}.{taken + 1}" if taken else name)
    return names


def _build(project: Project, folder: Path, copy: Path, settings: BuildSettings,
           env: Mapping[str, str], timeout: float, processes: Processes,
           originals: Mapping[Path, Path], sandbox: Sandbox | None) -> ProjectResult:
    began = time.monotonic()
    system = project.system
    source = copy / project.root.relative_to(project.top)
    if system.builds_in_place:
        folder = source
    else:
        folder.mkdir(parents=True, exist_ok=True)
    plan = system.build_plan(source, folder, settings)
    result = ProjectResult(project, folder)
    if plan is None:
        return result
    output = ""
    for step in plan.steps:
        argv, step_env = list(step.argv), dict(env) | dict(step.env)
        if sandbox is not None:  # bwrap itself needs no environment
            argv, step_env = sandbox.command(argv, step_env, step.cwd), {}
        started = time.monotonic()
        status, text = processes.run(argv, step_env, step.cwd, timeout)
        seconds = time.monotonic() - started
        kept, cut = kept_output(text)
        result.steps.append(StepResult(step.name, step.argv, status, seconds, kept, cut))
        places = _Places(project, copy, originals)  # after the step: it may have written files
        found = _findings(project, step.name, text, status, places, timeout, processes.stopped)
        awkward = _awkward_path(project, step.name) if status else []
        result.findings += awkward or found
        output += text
        if status != 0:
            break
    raise_if_stopped(processes.stopped)
    result.targets = system.made_targets(plan, output)
    if result.ok:
        result.gpu_sources = system.gpu_sources(plan, output)
        result.findings += _no_gpu_code(project, result.gpu_sources, settings.configuration)
    result.seconds = time.monotonic() - began
    return result


def _no_gpu_code(project: Project, compiled: int | None,
                 configuration: Configuration) -> list[BuildFinding]:
    """HP660 for a build that succeeded without compiling one HIP source of
    a project that has some (``.hip``, ``.cu``, C++ reaching a HIP header):
    its configure chose a CPU backend, or its GPU sources are in no target.
    The finding names the build files' conditions that keep the GPU code
    out, and the values that would turn them on."""
    if compiled != 0:
        return []
    units = unit_paths([project.root])
    if not units:
        return []
    names = ", ".join(u.relative_to(project.root).as_posix() for u in units[:_NAMED_UNITS])
    more = f", and {len(units) - _NAMED_UNITS} more" if len(units) > _NAMED_UNITS else ""
    message = (f"error: the build compiled no HIP source, though the project has "
               f"{len(units)} ({names}{more}): it built no GPU code")
    switches = project.system.gpu_switches(project.root, configuration)
    given = "the options given" if configuration.cmake or configuration.make \
        else "the default options"
    location = Location(project.build_file, 1)
    options = [s for s in switches if s.default is not None]
    if options:
        location = Location(options[0].path, options[0].line)
        named = ", ".join(f"{s.condition}={s.default or _EMPTY}" for s in options[:4])
        message += (f" with {given}; the project's options that may select it: {named}: "
                    "give the one its GPU build needs with -D NAME=VALUE")
    elif switches:
        location = Location(switches[0].path, switches[0].line)
        conditions = " and ".join(f"if({s.condition})" for s in switches[:3])
        fixes = list(dict.fromkeys(s.turn_on for s in switches if s.turn_on))
        message += f"; the GPU code is behind {conditions}, false with {given}"
        if fixes:
            message += f": configure with {' '.join(fixes)}"
    else:
        option = "-D NAME=VALUE" if project.system.name == "cmake" else "--make-var NAME=VALUE"
        message += (f" with {given}: pass the option that selects the GPU backend "
                    f"({option}), or add the GPU sources to a target")
    return [BuildFinding(NO_GPU_CODE, message, "build", location)]


class _Places:
    """Where a file the tools named is in the user's tree (a copy's file is
    the tree's), and in the CUDA original.  One per step: what it looks up
    on the disk (a file, a folder's names, a comparison with the original)
    it keeps, since a long log names the same files again and again."""

    def __init__(self, project: Project, copy: Path, originals: Mapping[Path, Path]) -> None:
        self.project = project
        self.copy = copy
        self.originals = originals
        self.source = copy / project.root.relative_to(project.top)
        self.build_file = project.build_file
        self._resolved: dict[tuple[str, str | None], Path] = {}
        self._inside: dict[Path, bool] = {}
        self._lines: dict[Path, list[str]] = {}
        self._names: dict[str, list[Path]] | None = None
        self._maps = LineMaps()

    def tree(self, path: Path) -> Path:
        if path == self.copy or path.is_relative_to(self.copy):
            return self.project.top / path.relative_to(self.copy)
        return path

    def resolve(self, name: str, folder: str | None) -> Path:
        key = (name, folder)
        if key not in self._resolved:
            path = Path(name)
            base = Path(folder) if folder else self.source
            self._resolved[key] = self.tree(Path(os.path.normpath(
                path if path.is_absolute() else base / path)))
        return self._resolved[key]

    def inside(self, path: Path) -> bool:
        if path not in self._inside:
            self._inside[path] = inside(path, [self.project.top])
        return self._inside[path]

    def at(self, path: Path, line: int, column: int = 0) -> Location:
        return Location(path, max(1, line), column)

    def original(self, location: Location | None) -> Location | None:
        if location is None:
            return None
        return original_of(location, self.originals, self._maps)

    def lines(self, path: Path) -> list[str]:
        """The lines of a file ([] when it cannot be read)."""
        if path not in self._lines:
            try:
                self._lines[path] = path.read_text(encoding="latin-1").splitlines()
            except OSError:
                self._lines[path] = []
        return self._lines[path]

    def named(self, name: str) -> list[Path]:
        """The files of the project called ``name``, two at most."""
        if self._names is None:
            self._names = {}
            for here, subfolders, files in os.walk(self.project.root):
                subfolders[:] = [d for d in subfolders
                                 if not d.startswith(".") and d not in _SKIPPED]
                for file in files:
                    found = self._names.setdefault(file, [])
                    if len(found) < 2:
                        found.append(Path(here, file))
        return self._names.get(name, [])

    def build_file_line(self, *words: str | None) -> Location:
        """The first line of the project's top build file that names one of
        ``words`` (a target, a library: ``-lfoo``, else ``foo``), else its
        first line."""
        path = self.build_file
        lines = self.lines(path)
        for word in words:
            if not word:
                continue
            pattern: re.Pattern[str] | None = None  # made for a line that has the word
            for number, text in enumerate(lines, 1):
                if word not in text:
                    continue
                pattern = pattern or re.compile(rf"(?<![\w.-]){re.escape(word)}(?![\w.-])")
                if pattern.search(text.split("#", 1)[0]):
                    return Location(path, number)
        return Location(path, 1)


def _findings(project: Project, step: str, output: str, status: int | None,
              places: _Places, timeout: float, stop: Event | None = None
              ) -> list[BuildFinding]:
    log = read_log(output, stop)
    found: list[BuildFinding] = []
    segment: list[BuildFinding] = []  # since the last failure make reported
    units: set[Path | None] = set()
    last_unit: Path | None = None
    symbols: set[str] = set()
    link_failed: LinkFailed | None = None
    shell: ShellError | None = None
    unexplained: list[MakeFailure] = []
    events: list[tuple[int, object]] = [(p.index, p) for p in log.problems]
    events += [(f.index, f) for f in log.failures]
    for _, event in sorted(events, key=lambda e: e[0]):
        raise_if_stopped(stop)
        if isinstance(event, ConfigureError):
            segment.append(_configure(event, step, places))
        elif isinstance(event, CompileError):
            unit = _unit(event, places) or last_unit
            last_unit = unit
            if unit not in units:
                units.add(unit)
                segment.append(_compile(event, unit, step, places))
        elif isinstance(event, LinkError):
            key = event.symbol or event.message
            if key not in symbols:
                symbols.add(key)
                segment.append(_link(event, step, places))
        elif isinstance(event, LinkFailed):
            link_failed = event
        elif isinstance(event, ShellError):
            shell = event
        elif isinstance(event, MakeFailure):
            target = project.system.target_named(event.target) if event.target else None
            if segment:
                found += [_with_target(f, target) for f in segment]
            elif event.status is None:
                found.append(_make_complaint(event, target, step, places))
            elif shell is not None:
                found.append(BuildFinding("HP658", f"error: {shell.message}", step,
                                          _marker_place(event, target, places), None, target,
                                          text=shell.text))
            elif link_failed is not None:
                found.append(BuildFinding("HP659", f"error: linking {target or 'a target'} "
                                          "failed", step, places.build_file_line(target),
                                          None, target, text=link_failed.text))
            else:
                unexplained.append(event)
            segment, units, last_unit, link_failed, shell = [], set(), None, None, None
    found += segment
    found = _capped_links(found)
    if status is None:
        found.append(BuildFinding(
            "HP021", f"the {step} step did not finish within the time limit ({timeout:g} s); "
            "stopped", step, Location(places.build_file, 1)))
    elif status != 0 and not found:
        found.append(_unexplained(project, step, output, status, unexplained, places))
    for i, finding in enumerate(found):
        if finding.location is not None and finding.original is None:
            found[i] = _with_original(finding, places.original(finding.location))
    return found


def _awkward_path(project: Project, step: str) -> list[BuildFinding]:
    """A failed step of a project whose path below its tree has a character
    its build tool cannot take (the copy's and the build folder's own names
    are safe): that is the cause, whatever the tool then printed."""
    relative = project.root.relative_to(project.top).as_posix()
    for character, name in project.system.path_characters:
        if character in relative:
            code = "HP657" if step == "configure" else "HP658"
            return [BuildFinding(code, f"error: {project.system.title} cannot build in a "
                                 f"folder whose path has {name} in it; rename {relative!r}",
                                 step, Location(project.build_file, 1))]
    return []


def _with_target(finding: BuildFinding, target: str | None) -> BuildFinding:
    if finding.target is not None or target is None:
        return finding
    return BuildFinding(finding.code, finding.message, finding.step, finding.location,
                        finding.original, target, finding.unit, finding.error, finding.text)


def _with_original(finding: BuildFinding, original: Location | None) -> BuildFinding:
    return BuildFinding(finding.code, finding.message, finding.step, finding.location,
                        original, finding.target, finding.unit, finding.error, finding.text)


def _capped_links(found: list[BuildFinding]) -> list[BuildFinding]:
    """At most ``_LINKS_SHOWN`` undefined symbols per target; the last one
    listed says how many more there are."""
    kept: list[BuildFinding] = []
    counts: dict[str | None, int] = {}
    for finding in found:
        if finding.code == "HP659" and "undefined" in finding.message:
            counts[finding.target] = counts.get(finding.target, 0) + 1
            if counts[finding.target] > _LINKS_SHOWN:
                continue
        kept.append(finding)
    last: dict[str | None, int] = {}  # per target, where its last one listed is in kept
    for i, finding in enumerate(kept):
        if finding.code == "HP659" and "undefined" in finding.message:
            last[finding.target] = i
    for target, count in counts.items():
        if count > _LINKS_SHOWN:
            f = kept[last[target]]
            kept[last[target]] = BuildFinding(
                f.code, f"{f.message} (and {count - _LINKS_SHOWN} more undefined symbols)",
                f.step, f.location, f.original, f.target, f.unit, f.error, f.text)
    return kept


def _configure(event: ConfigureError, step: str, places: _Places) -> BuildFinding:
    location: Location | None = None
    frames = [(event.file, event.line)] if event.file else []
    frames += [(frame.file, frame.line) for frame in event.stack]
    for name, line in frames:
        if name is None:
            continue
        path = places.resolve(name, None)
        if places.inside(path):
            location = places.at(path, line)
            break
    if location is None:
        location = Location(places.build_file, 1)
    where = ""
    if event.file and (location.path != places.resolve(event.file, None)):
        where = f" (in {event.file}:{event.line})" if event.line else f" (in {event.file})"
    return BuildFinding("HP657", f"error: CMake: {event.message}{where}", step, location,
                        text=event.text)


def _unit(event: CompileError, places: _Places) -> Path | None:
    """The translation unit of a compile error: the outermost file of its
    include chain, or its own file, when that is a source (GCC names only
    the part of the chain that changed since its last error: a header
    there is the previous error's unit)."""
    chain = event.error.included_from
    name = chain[0].file if chain else event.error.file
    if name is None or Path(name).suffix not in _SOURCE_SUFFIXES:
        return None
    return places.resolve(name, event.folder)


def _compile(event: CompileError, unit: Path | None, step: str,
             places: _Places) -> BuildFinding:
    error = event.error
    location = located(error, lambda name: places.resolve(name, event.folder),
                       [places.project.top])
    if location is None:
        location = Location(unit, 1) if unit is not None and places.inside(unit) else None
    return BuildFinding("HP658", error.text, step, location, None, None, unit, error,
                        event.text)


def _link(event: LinkError, step: str, places: _Places) -> BuildFinding:
    message = f"error: {event.message}"
    if event.library:
        return BuildFinding("HP659", message, step, places.build_file_line(
            event.library, event.library[2:]), text=event.text)
    source = _link_source(event, places)
    location = None
    if source is not None:
        line = event.line or _line_naming(places.lines(source), event.symbol)
        location = Location(source, line or 1)
    return BuildFinding("HP659", message, step, location, text=event.text)


def _link_source(event: LinkError, places: _Places) -> Path | None:
    """The file that refers to the symbol: as the linker named it (with a
    path: from where make ran), else the one file of that name in the
    project, else the source the object file was compiled from."""
    names = [event.file] if event.file else []
    if event.object:
        stem = Path(event.object).name
        for suffix in (".o", ".obj"):
            stem = stem[:-len(suffix)] if stem.endswith(suffix) else stem
        names.append(stem)
    for name in names:
        path = places.resolve(name, event.folder)
        if places.inside(path) and path.is_file():
            return path
        matches = places.named(Path(name).name)
        if len(matches) == 1:
            return matches[0]
    return None


def _line_naming(lines: list[str], symbol: str | None) -> int:
    """The first of a file's ``lines`` that names the symbol's function (the
    last name of ``ns::f<int>(int)``: ``f``); 0 when none does."""
    if not symbol:
        return 0
    bare = re.sub(r"\(.*$", "", symbol)
    bare = re.sub(r"<.*>", "", bare)
    names = _WORD.findall(bare)
    if not names:
        return 0
    word = names[-1]
    name = re.escape(word)
    pattern = re.compile(rf"\b{name}\b")
    # A declaration (``void f(int);``) names it too: a use is wanted.
    declaration = re.compile(rf"^\s*(?!(?:return|co_return|throw|else|case|do)\b)"
                             rf"[A-Za-z_][\w:<>,*&\s]*?[\s*&]{name}\s*\([^()]*\)\s*"
                             rf"(?:const\s*)?(?:noexcept\s*)?;")
    naming = [n for n, text in enumerate(lines, 1)
              if word in text and pattern.search(text.split("//", 1)[0])]
    uses = [n for n in naming if not declaration.match(lines[n - 1])]
    return (uses or naming or [0])[0]


def _marker_place(event: MakeFailure, target: str | None, places: _Places) -> Location:
    """The rule make named (in the tree's Makefile), else the project's
    build file where it names the target."""
    if event.makefile and event.line:
        path = places.resolve(event.makefile, event.folder)
        if places.inside(path):
            return Location(path, event.line)
    return places.build_file_line(target)


def _make_complaint(event: MakeFailure, target: str | None, step: str,
                    places: _Places) -> BuildFinding:
    why = event.why.rstrip(".").removesuffix(".  Stop").removesuffix("  Stop").strip()
    missing = re.search(r"No rule to make target [`'](.+?)'", why)
    location = places.build_file_line(Path(missing[1]).name) if missing else \
        _marker_place(event, target, places)
    return BuildFinding("HP658", f"error: make: {why}", step, location, None, target)


def _unexplained(project: Project, step: str, output: str, status: int,
                 failures: list[MakeFailure], places: _Places) -> BuildFinding:
    """A step that failed and said nothing hipport reads."""
    code = "HP657" if step == "configure" else "HP658"
    if failures:
        first = failures[0]
        target = project.system.target_named(first.target) if first.target else None
        return BuildFinding(code, f"error: {target or 'a target'}: {first.why}", step,
                            _marker_place(first, target, places), None, target)
    last = next((line.strip() for line in reversed(output.splitlines()) if line.strip()),
                "it printed nothing")
    return BuildFinding(code, f"error: the {step} step exited with status {status}: {last}",
                        step, Location(places.build_file, 1))
