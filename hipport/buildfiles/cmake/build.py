"""Configuring and building a CMake project (``hipport verify --build``):
``cmake -S project -B folder`` with the Makefile generator, then ``cmake
--build folder -j N -- -k`` (every target that can be built is, so each
failure is seen).  The targets come from CMake's file API (a codemodel
query written before configuring): the executables and libraries, each
built when make said ``Built target X``."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hipport.buildfiles.hip_commands import hip_sources
from hipport.buildfiles.makelog import make_failures
from hipport.buildfiles.project import BuildPlan, BuildSettings, BuildStep, Target

_QUERIES = Path(".cmake", "api", "v1", "query")
_QUERY = _QUERIES / "codemodel-v2"
_TOOLCHAINS = _QUERIES / "toolchains-v1"
_REPLY = Path(".cmake", "api", "v1", "reply")
_BUILT = re.compile(r"^\[\s*\d+%\] Built target (\S+)$", re.MULTILINE)
_TARGET_FOLDER = re.compile(r"CMakeFiles/([^/\]]+)\.dir/")
_BUILT_KINDS = frozenset({"EXECUTABLE", "STATIC_LIBRARY", "SHARED_LIBRARY", "MODULE_LIBRARY",
                          "OBJECT_LIBRARY"})
_LINKS = ("EXE", "SHARED", "MODULE")
# The Makefile generator's line per object: the HIP language's, FindHIP's
# hip_add_executable (its custom command says HIPCC).
_HIP_OBJECT = re.compile(r"^\[\s*\d+%\] Building HIP object (\S+)$", re.MULTILINE)
_ANY_OBJECT = re.compile(r"^\[\s*\d+%\] Building \w+ object ", re.MULTILINE)
_FINDHIP_OBJECT = re.compile(r"_generated_[^/]+\.o$")
_HIP_FLAGS = re.compile(r"(?:^|\s)(?:-x\s*hip|--offload-arch=)")
_HIPCC_OBJECT = re.compile(r"^\[\s*\d+%\] Building HIPCC object (\S+)$", re.MULTILINE)


def cmake_plan(project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
    tools = settings.tools
    cmake = tools.program("cmake")
    query = folder / _QUERY
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()
    (folder / _TOOLCHAINS).touch()
    targets = ";".join(settings.offload_arch)
    configure = [*cmake, "-S", str(project), "-B", str(folder), "-G", "Unix Makefiles",
                 "--no-warn-unused-cli", f"-DCMAKE_HIP_ARCHITECTURES={targets}",
                 # hip::device (hip-config-amd.cmake) and FindHIP's targets
                 f"-DGPU_TARGETS={targets}", f"-DAMDGPU_TARGETS={targets}"]
    if tools.link_flags:
        flags = " ".join(tools.link_flags)
        configure += [f"-DCMAKE_{kind}_LINKER_FLAGS={flags}" for kind in _LINKS]
    if settings.extra_args:
        extra = " ".join(settings.extra_args)
        configure += [f"-DCMAKE_HIP_FLAGS={extra}", f"-DCMAKE_CXX_FLAGS={extra}"]
    # the user's last: a -D of theirs wins over hipport's default
    configure += [f"-D{name}={value}" for name, value in settings.configuration.cmake]
    build = [*cmake, "--build", str(folder), "-j", str(max(1, settings.jobs)), "--", "-k"]
    return BuildPlan(folder, (BuildStep("configure", tuple(configure), folder),
                              BuildStep("build", tuple(build), folder)))


def cmake_made_targets(plan: BuildPlan, output: str) -> tuple[Target, ...]:
    """The executables and libraries the project defines (CMake's file API),
    each built when make said so; () when CMake wrote no answer."""
    names = _defined(plan.folder)
    if not names:
        return ()
    built = set(_BUILT.findall(output))
    failed = {cmake_target_named(f.target) for f in make_failures(output.splitlines())
              if f.target}
    return tuple(Target(n, n in built and n not in failed) for n in names)


def cmake_target_named(made: str) -> str:
    """``CMakeFiles/app.dir/main.cpp.o`` (and ``.../all``) -> ``app``."""
    found = _TARGET_FOLDER.search(made)
    return found[1] if found else made


def cmake_gpu_sources(plan: BuildPlan, output: str) -> int | None:
    """How many HIP sources the build compiled: those the file API puts in
    a HIP compile group (or a CXX one compiled as HIP: the C++ compiler is
    hipcc, or its flags say ``-x hip``), FindHIP's objects (its ``Building
    HIPCC object`` lines, its ``*_generated_*.o`` sources: a build folder
    built again compiles nothing), and the sources custom commands give
    hipcc (a code object: ``hipcc --genco``); without a file API answer,
    the ``Building HIP object`` lines."""
    hipcc_objects = {Path(o).name for o in _HIPCC_OBJECT.findall(output)}
    hipcc_objects |= _custom_commands(plan.folder)
    documents = _targets(plan.folder)
    if documents is None:
        if not _ANY_OBJECT.search(output) and not hipcc_objects:
            return None  # neither CMake's answer nor its progress lines: cannot tell
        return len(set(_HIP_OBJECT.findall(output))) + len(hipcc_objects)
    hipcc = _cxx_is_hipcc(plan.folder)
    top = _source_folder(plan)
    sources: set[str] = set()
    for target in documents:
        groups = target.get("compileGroups") or []
        for source in target.get("sources") or []:
            path = str(source.get("path"))
            index = source.get("compileGroupIndex")
            if isinstance(index, int) and 0 <= index < len(groups) and \
                    _compiles_hip(groups[index], hipcc):
                sources.add(str(top / path))  # relative to the top source folder
            elif _FINDHIP_OBJECT.search(path):
                hipcc_objects.add(Path(path).name)
    return len(sources | hipcc_objects)


def _source_folder(plan: BuildPlan) -> Path:
    """The project's folder, as the configure step names it (``-S``)."""
    argv = list(plan.steps[0].argv) if plan.steps else []
    return Path(argv[argv.index("-S") + 1]) if "-S" in argv[:-1] else plan.folder


def _custom_commands(folder: Path) -> set[str]:
    """The sources the custom commands of the generated Makefiles give
    hipcc (``CMakeFiles/<target>.dir/build.make``: each command as it runs)."""
    found: set[str] = set()
    for build_make in folder.glob("**/CMakeFiles/*.dir/build.make"):
        try:
            text = build_make.read_text(encoding="latin-1")
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("\t") and "hipcc" in line:
                found |= {str(Path(where or build_make.parent.parent.parent) / source)
                          for where, source in hip_sources(line.strip(), clang=False)}
    return found


def _compiles_hip(group: dict[str, Any], cxx_is_hipcc: bool) -> bool:
    language = group.get("language")
    if language == "HIP":
        return True
    if language != "CXX":
        return False
    flags = " ".join(str(f.get("fragment", "")) for f in group.get("compileCommandFragments")
                     or [] if isinstance(f, dict))
    return cxx_is_hipcc or _HIP_FLAGS.search(flags) is not None


def _defined(folder: Path) -> list[str]:
    return sorted(str(t["name"]) for t in _targets(folder) or [])


def _reply(folder: Path, kind: str) -> tuple[Path, dict[str, Any]] | None:
    """The reply folder and CMake's answer of ``kind`` (codemodel,
    toolchains); None when CMake wrote none."""
    reply = folder / _REPLY
    try:
        index = max(reply.glob("index-*.json"))
        objects = json.loads(index.read_text(encoding="utf-8"))["objects"]
        found = next(o for o in objects if o.get("kind") == kind)
        return reply, json.loads((reply / found["jsonFile"]).read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, StopIteration, TypeError, AttributeError):
        return None


def _targets(folder: Path) -> list[dict[str, Any]] | None:
    """The file API's document of each executable and library the project
    defines; None when CMake wrote no answer."""
    answer = _reply(folder, "codemodel")
    if answer is None:
        return None
    reply, codemodel = answer
    try:
        documents = []
        for entry in codemodel["configurations"][0]["targets"]:
            target = json.loads((reply / entry["jsonFile"]).read_text(encoding="utf-8"))
            if target.get("type") in _BUILT_KINDS and not target.get("imported"):
                documents.append(target)
        return documents
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None


def _cxx_is_hipcc(folder: Path) -> bool:
    """The project's C++ compiler is hipcc (``CMAKE_CXX_COMPILER``): its CXX
    sources are compiled as HIP."""
    answer = _reply(folder, "toolchains")
    try:
        toolchains = answer[1]["toolchains"] if answer is not None else []
        return any(t.get("language") == "CXX" and
                   Path(str(t["compiler"]["path"])).name.startswith("hipcc")
                   for t in toolchains)
    except (KeyError, TypeError, AttributeError):
        return False
