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

from hipport.buildfiles.makelog import make_failures
from hipport.buildfiles.project import BuildPlan, BuildSettings, BuildStep, Target

_QUERY = Path(".cmake", "api", "v1", "query", "codemodel-v2")
_REPLY = Path(".cmake", "api", "v1", "reply")
_BUILT = re.compile(r"^\[\s*\d+%\] Built target (\S+)$", re.MULTILINE)
_TARGET_FOLDER = re.compile(r"CMakeFiles/([^/\]]+)\.dir/")
_BUILT_KINDS = frozenset({"EXECUTABLE", "STATIC_LIBRARY", "SHARED_LIBRARY", "MODULE_LIBRARY",
                          "OBJECT_LIBRARY"})
_LINKS = ("EXE", "SHARED", "MODULE")


def cmake_plan(project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
    tools = settings.tools
    cmake = tools.program("cmake")
    query = folder / _QUERY
    query.parent.mkdir(parents=True, exist_ok=True)
    query.touch()
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


def _defined(folder: Path) -> list[str]:
    reply = folder / _REPLY
    try:
        index = max(reply.glob("index-*.json"))
        objects = json.loads(index.read_text(encoding="utf-8"))["objects"]
        model = next(o for o in objects if o.get("kind") == "codemodel")
        codemodel = json.loads((reply / model["jsonFile"]).read_text(encoding="utf-8"))
        names = []
        for entry in codemodel["configurations"][0]["targets"]:
            target = json.loads((reply / entry["jsonFile"]).read_text(encoding="utf-8"))
            if target.get("type") in _BUILT_KINDS and not target.get("imported"):
                names.append(str(entry["name"]))
        return sorted(names)
    except (OSError, ValueError, KeyError, IndexError, StopIteration, TypeError):
        return []
