"""`hipport verify` output: a line per failing translation unit (its first
error) or per build failure, and the summary line, or one JSON document
(schema docs/verify.schema.json)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, TextIO

from hipport.buildfiles.system import system_named
from hipport.codes import CODES
from hipport.filenames import shown_path
from hipport.verify.build import BuildFinding, BuildVerification, ProjectResult
from hipport.verify.compiler import Compiler
from hipport.verify.diagnostics import CompilerError
from hipport.verify.hints import hint
from hipport.verify.session import Location, UnitResult, Verification
from hipport.version import __version__
from hipport.words import plural

SCHEMA_ID = "hipport-verify/1"
Shown = Callable[[Path], str]


def _at(location: Location | None, shown: Shown) -> str:
    if location is None:
        return ""
    column = f":{location.column}" if location.column else ""
    return f"{shown(location.path)}:{location.line}{column}"


def finding_lines(result: UnitResult, shown: Shown, others: int = 0) -> list[str]:
    """``tree/file.cu:12:5: HP020 error: ...`` and what places it; ``others``
    more units failed at the same place with the same error."""
    lines = [f"{_at(result.location, shown)}: {result.code} {result.message}"]
    if result.location is not None and result.location.path != result.unit.path:
        more = f" and {others} more with the same first error" if others else ""
        lines.append(f"  in translation unit {shown(result.unit.path)}{more}")
    return lines + _original_and_hint(result.original, result.message, shown)


def _original_and_hint(original: Location | None, message: str, shown: Shown) -> list[str]:
    """The lines under a finding: the CUDA original's place, and what to do
    when the message's cause is known."""
    lines = [f"  original: {_at(original, shown)}"] if original is not None else []
    advice = hint(message)
    return lines + [f"  hint: {advice}"] if advice else lines


def text_lines(verification: Verification, shown: Shown) -> list[str]:
    """One finding per failing unit, except that units failing at the same
    line of a shared header with the same error are one finding (one broken
    utility header can stop a hundred units)."""
    groups: dict[tuple[object, ...], list[UnitResult]] = {}
    for result in verification.failed:
        shared = result.location is not None and result.location.path != result.unit.path
        key = (result.location, result.message) if shared else (result.unit.path,)
        groups.setdefault(key, []).append(result)
    return [line for group in groups.values()
            for line in finding_lines(group[0], shown, len(group) - 1)]


def _location_json(location: Location | None, shown: Shown) -> dict[str, object] | None:
    if location is None:
        return None
    return {"path": shown(location.path), "line": location.line, "column": location.column}


def as_json(verification: Verification, shown: Shown, exit_code: int) -> dict[str, object]:
    compiler = verification.compiler
    settings = verification.settings
    findings = []
    for r in verification.failed:
        code = CODES[r.code or "HP020"]
        error = r.error
        findings.append({
            "code": code.code, "name": code.name, "severity": code.severity.value,
            "unit": shown(r.unit.path),
            "location": _location_json(r.location, shown),
            "original": _location_json(r.original, shown),
            "message": r.message,
            "hint": hint(r.message),
            "compiler": None if error is None else _error_json(error),
            "output": r.output,
            "output_cut": r.output_cut,
        })
    return {
        "schema": SCHEMA_ID,
        "hipport_version": __version__,
        "compiler": _compiler_json(compiler),
        "offload_arch": list(settings.offload_arch),
        "mode": "syntax-only" if settings.syntax_only else "compile",
        "timeout": settings.timeout,
        "summary": {"units": len(verification.results),
                    "compiled": len(verification.results) - len(verification.failed),
                    "failed": len(verification.failed),
                    "timed_out": sum(r.timed_out for r in verification.results),
                    "seconds": round(verification.seconds, 3),
                    "text": verification.summary},
        "units": [{"path": shown(r.unit.path), "ok": r.ok, "seconds": round(r.seconds, 3),
                   "flags_from": r.unit.flags_from, "language": r.unit.language,
                   "command": list(r.command)}
                  for r in verification.results],
        "findings": findings,
        "exit_code": exit_code,
    }


def _compiler_json(compiler: Compiler) -> dict[str, object]:
    return {"path": compiler.path, "hip_version": compiler.hip_version,
            "clang_version": compiler.clang_version, "chosen_by": compiler.chosen_by,
            "reason": compiler.reason}


def _error_json(error: CompilerError) -> dict[str, object]:
    return {"message": error.message, "fatal": error.fatal, "target": error.target,
            "file": error.file, "line": error.line, "column": error.column,
            "included_from": [{"file": i.file, "line": i.line} for i in error.included_from]}


def render_json(verification: Verification, out: TextIO, shown: Shown, exit_code: int) -> None:
    json.dump(as_json(verification, shown, exit_code), out, indent=2, ensure_ascii=False,
              allow_nan=False)
    out.write("\n")


# ------------------------------------------------------------------ builds --
def build_finding_lines(result: ProjectResult, finding: BuildFinding, shown: Shown,
                        others: int = 0) -> list[str]:
    """``tree/main.cpp:3:10: HP658 error: ...``, the project and target it
    is in, the translation unit, and the CUDA original's line."""
    at = _at(finding.location, shown) or shown(result.project.root)
    lines = [f"{at}: {finding.code} {finding.message}"]
    project = result.project
    where = f"  in {project.system.title} project {shown(project.root)}"
    if finding.target:
        where += f", target {finding.target}"
    if finding.unit is not None and (finding.location is None
                                     or finding.location.path != finding.unit):
        where += f", translation unit {shown(finding.unit)}"
    if others:
        where += f" (and {others} more with the same error)"
    lines.append(where)
    return lines + _original_and_hint(finding.original, finding.message, shown)


def build_text_lines(verification: BuildVerification, shown: Shown) -> list[str]:
    """Every finding (the same error at the same line of a shared header,
    once per project with a count), then a line per project that failed."""
    lines = [f"{shown(s.path)}: {s.reason}" for s in verification.skipped]
    for result in verification.projects:
        groups: dict[tuple[object, ...], list[BuildFinding]] = {}
        for finding in result.findings:
            shared = finding.unit is not None and finding.location is not None \
                and finding.location.path != finding.unit
            key = (finding.location, finding.message) if shared else (id(finding),)
            groups.setdefault(key, []).append(finding)
        for group in groups.values():
            lines += build_finding_lines(result, group[0], shown, len(group) - 1)
    for result in verification.failed:
        lines.append(f"{shown(result.project.root)}: {project_state(result)}")
    return lines


def project_state(result: ProjectResult) -> str:
    """``CMake: configure failed (exit status 1)``, ``Make: build stopped at
    the time limit``, ``CMake: built, 2 of 2 targets``."""
    title = result.project.system.title
    failed = result.failed_step
    targets = result.targets
    counted = f", {sum(t.built for t in targets)} of {plural(len(targets), 'target')} built" \
        if targets else ""
    if failed is None and result.built and not result.ok:
        return f"{title}: built{counted}, but compiled no HIP source"
    if failed is None:
        return f"{title}: built{counted}" if result.steps else f"{title}: not built"
    if failed.status is None:
        return f"{title}: {failed.name} stopped at the time limit{counted}"
    return f"{title}: {failed.name} failed (exit status {failed.status}){counted}"


def build_tool_lines(verification: BuildVerification) -> list[str]:
    tools = verification.toolchain
    used = ", ".join(f"{name} {shown_path(path)}" for name, path in tools.where)
    lines = [f"build tools: {used}"]
    if tools.bwrap is None:
        lines.append("sandbox: none (--no-sandbox): the build ran with your rights, files and "
                     "network")
    else:
        root = "" if tools.sysroot == Path("/") else f", in {shown_path(tools.sysroot)}"
        lines.append(f"sandbox: {shown_path(tools.bwrap)}{root} (no network; writes in the "
                     "build folder only; docs/verify.md)")
    if tools.tools.link_flags:
        lines.append(f"linking with {' '.join(tools.tools.link_flags)}: {tools.tools.link_why}")
    also: dict[str, int] = {}
    for result in verification.projects:
        for name in result.project.also:
            also[name] = also.get(name, 0) + 1
    for name, n in also.items():
        lines.append(f"{plural(n, 'project folder')} also {'have' if n != 1 else 'has'} "
                     f"{system_named(name).title} build files, not built (`--build-system "
                     f"{name}` builds those)")
    if verification.outside:
        n = verification.outside
        lines.append(f"{plural(n, 'translation unit')} in no project {'were' if n != 1 else 'was'}"
                     " not built (`hipport verify --units` compiles them)")
    return lines


def build_as_json(verification: BuildVerification, shown: Shown,
                  exit_code: int) -> dict[str, object]:
    compiler = verification.compiler
    settings = verification.settings
    tools = verification.toolchain
    targets = verification.targets
    findings = []
    for result, f in verification.findings:
        code = CODES[f.code]
        error = f.error
        findings.append({
            "code": code.code, "name": code.name, "severity": code.severity.value,
            "project": shown(result.project.root), "step": f.step, "target": f.target,
            "unit": shown(f.unit) if f.unit is not None else None,
            "location": _location_json(f.location, shown),
            "original": _location_json(f.original, shown),
            "message": f.message,
            "hint": hint(f.message),
            "compiler": None if error is None else _error_json(error),
            "output": f.text,
        })
    return {
        "schema": SCHEMA_ID,
        "hipport_version": __version__,
        "compiler": _compiler_json(compiler),
        "build_tools": {"programs": {name: path for name, path in tools.where},
                        "rocm_root": tools.tools.rocm_root,
                        "link_flags": list(tools.tools.link_flags),
                        "link_why": tools.tools.link_why},
        "sandbox": None if tools.bwrap is None else {"tool": tools.bwrap,
                                                      "root": str(tools.sysroot)},
        "skipped": [{"path": shown(s.path), "reason": s.reason} for s in verification.skipped],
        "offload_arch": list(settings.offload_arch),
        "configure": {"cmake": [f"{k}={v}" for k, v in settings.configuration.cmake],
                      "make": [f"{k}={v}" for k, v in settings.configuration.make]},
        "mode": "build",
        "timeout": settings.timeout,
        "summary": {"projects": len(verification.projects),
                    "built": len(verification.projects) - len(verification.failed),
                    "failed": len(verification.failed),
                    "timed_out": sum(any(s.status is None for s in p.steps)
                                     for p in verification.projects),
                    "targets": targets[1] if targets else None,
                    "targets_built": targets[0] if targets else None,
                    "outside_projects": verification.outside,
                    "seconds": round(verification.seconds, 3),
                    "text": verification.summary},
        "projects": [{
            "path": shown(p.project.root), "build_system": p.project.system.name,
            "ok": p.ok, "gpu_sources": p.gpu_sources, "seconds": round(p.seconds, 3),
            "build_folder": str(p.folder) if settings.build_dir is not None else None,
            "also": list(p.project.also),
            "steps": [{"name": s.name, "command": list(s.argv), "status": s.status,
                       "seconds": round(s.seconds, 3), "output": s.output,
                       "output_cut": s.output_cut} for s in p.steps],
            "targets": [{"name": t.name, "built": t.built} for t in p.targets],
        } for p in verification.projects],
        "findings": findings,
        "exit_code": exit_code,
    }


def render_build_json(verification: BuildVerification, out: TextIO, shown: Shown,
                      exit_code: int) -> None:
    json.dump(build_as_json(verification, shown, exit_code), out, indent=2, ensure_ascii=False,
              allow_nan=False)
    out.write("\n")
