"""Semantic mode: libclang decides which names are CUDA's.

The syntax front end proposes every candidate identifier; each translation
unit is then parsed as CUDA by libclang and every use the compiler resolves
gets a verdict: kept when its declaration lives in CUDA's headers, dropped
when it is the user's own.  Uses clang cannot see (code inactive in both the
host and the device pass, preprocessor conditions) keep the syntax result,
and a file clang cannot parse falls back to syntax mode with an HP007
finding.  See docs/semantic-mode.md.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hipport.findings import Finding
from hipport.parse import chevrons, compdb
from hipport.parse.clang_env import (
    find_cuda,
    find_resource_dir,
    libclang_major,
    load_cindex,
    shim_dir,
)
from hipport.parse.clang_walk import (
    TranslationUnitWalk,
    Verdict,
    Walk,
    in_any,
    is_cuda_path,
)
from hipport.parse.model import Analysis, Edited, Reference, Role
from hipport.parse.syntax import SyntaxBackend
from hipport.table.names import CandidateNames

DEFAULT_GPU_ARCH = "sm_80"
_PARSE_OPTIONS = 0x01 | 0x200  # DetailedPreprocessingRecord | KeepGoing


@dataclass(frozen=True)
class SemanticOptions:
    cuda_path: str | None = None
    compile_commands: str | None = None  # a compile_commands.json or its directory
    extra_args: tuple[str, ...] = ()
    gpu_arch: str = DEFAULT_GPU_ARCH
    # Further directories whose headers are CUDA's (library headers kept
    # outside the toolkit, e.g. from nvidia-* wheels); searched with -isystem.
    cuda_includes: tuple[str, ...] = ()


@dataclass
class SemanticDetail:
    """What the semantic pass decided for one file, for comparisons and
    ``--semantic`` reports (the references themselves are in the Analysis)."""

    fallback: str | None = None  # why clang's result was not used
    kept: list[Reference] = field(default_factory=list)  # syntax refs clang confirmed
    dropped: list[Reference] = field(default_factory=list)  # syntax refs that are the user's
    added: list[Reference] = field(default_factory=list)  # refs syntax mode missed
    unresolved: list[Reference] = field(default_factory=list)  # kept without a verdict
    macro_hidden: dict[str, tuple[str, int]] = field(default_factory=dict)  # api -> (macro, uses)
    device_pass: bool = False


class SemanticBackend:
    name = "semantic"

    def __init__(self, options: SemanticOptions = SemanticOptions()) -> None:
        self.options = options
        self._syntax = SyntaxBackend()
        self._cindex = load_cindex()
        self.resource_dir = find_resource_dir(libclang_major(self._cindex))
        self.cuda = find_cuda(options.cuda_path, options.cuda_includes)
        self._flags = compdb.load(options.compile_commands) if options.compile_commands else {}
        self._index = self._cindex.Index.create()
        prefixes = [str(d) for d in self.cuda.include_dirs] + [str(self.resource_dir)]
        prefixes += [os.path.realpath(p) for p in prefixes]
        self._is_cuda_file = is_cuda_path(tuple(p.rstrip("/") + "/" for p in prefixes))
        self.last_detail = SemanticDetail()

    def error_count(self, data: bytes) -> int:
        # Used to spot errors a conversion introduces: the converted text is
        # HIP, which a CUDA parse would reject wholesale, so count syntax errors.
        return self._syntax.error_count(data)

    def analyze(self, data: bytes, names: CandidateNames, path: Path | None = None,
                edited: Edited | None = None) -> Analysis:
        syntax = self._syntax.analyze(data, names, path)
        self.last_detail = detail = SemanticDetail()
        if not syntax.references and not syntax.declared:
            return syntax  # no candidate name: nothing for clang to decide
        if any(i.target.startswith("hip/") for i in syntax.includes):
            # Already HIP (e.g. the verification pass over converted text):
            # CUDA's headers cannot parse it, and its leftovers are syntax mode's.
            return syntax
        main = str((path or Path("hipport-input.cu")).resolve())
        host, problem = self._parse(main, data, path, device=False)
        if host is None:
            return self._fallback(syntax, problem, detail)
        walker = TranslationUnitWalk(self._cindex, host, data, main, names, self._is_cuda_file)
        walk = walker.run()
        walk.skipped = _skipped(self._cindex, host, main)
        device_walk: Walk | None = None
        if any(in_any(r.start, walk.skipped) for r in syntax.references):
            device, problem = self._parse(main, data, path, device=True)
            if device is None:
                return self._fallback(syntax, f"device pass: {problem}", detail)
            device_walk = TranslationUnitWalk(self._cindex, device, data, main, names,
                                              self._is_cuda_file).run()
            device_walk.skipped = _skipped(self._cindex, device, main)
            detail.device_pass = True
        references = _decide(syntax, walk, device_walk, walker, detail, data, names)
        return replace(syntax, references=references, diagnostics=list(syntax.diagnostics))

    # -- parsing -----------------------------------------------------------
    def arguments(self, path: Path | None, device: bool) -> list[str]:
        args = ["-x", "cuda", "-nocudalib", "-Wno-unknown-cuda-version",
                "-resource-dir", str(self.resource_dir)]
        args += ["--cuda-device-only", f"--cuda-gpu-arch={self.options.gpu_arch}"] if device \
            else ["--cuda-host-only"]
        root = self.cuda.root
        if root is not None:
            args.append(f"--cuda-path={root}")
            extra_dirs = [d for d in self.cuda.include_dirs if d != (root / "include").resolve()]
        else:  # headers without a toolkit layout (nvidia-* wheels)
            args += ["-nocudainc", "-include", "__clang_cuda_runtime_wrapper.h"]
            extra_dirs = list(self.cuda.include_dirs)
        for d in extra_dirs:
            args += ["-isystem", str(d)]
        args += ["-idirafter", str(shim_dir())]
        # Without it clang assumes a pre-9.2 CUDA in some set-ups (device
        # passes, wheels) and wants `cudaConfigureCall` for launches.  Clang
        # 18 knows CUDA up to 12.3; newer versions count as "unknown", so cap.
        sdk = min(self.cuda.version, (12, 0)) if self.cuda.version >= (9, 2) else (12, 0)
        args += ["-Xclang", f"-target-sdk-version={sdk[0]}.{sdk[1]}"]
        if path is not None:
            args += self._flags.get(path.resolve(), ())
        args += self.options.extra_args
        return args

    def _parse(self, main: str, data: bytes, path: Path | None,
               device: bool) -> tuple[Any | None, str]:
        ci = self._cindex
        # Spaced launch chevrons (`k << <g, b >> > (x)`), which clang rejects,
        # are joined at the same length: every offset holds for ``data``.
        text = chevrons.join(data)
        try:
            tu = self._index.parse(main, args=self.arguments(path, device),
                                   unsaved_files=[(main, text)], options=_PARSE_OPTIONS)
        except ci.TranslationUnitLoadError as exc:
            return None, f"libclang could not parse it ({exc})"
        errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
        if errors:
            first = errors[0]
            where = first.location
            at = f"{where.file.name}:{where.line}: " if where.file is not None else ""
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            return None, f"{at}{first.spelling}{more}"
        return tu, ""

    def _fallback(self, syntax: Analysis, problem: str, detail: SemanticDetail) -> Analysis:
        detail.fallback = problem
        finding = Finding("HP007", f"semantic parse failed, syntax mode used: {problem}", 0, 0)
        return replace(syntax, diagnostics=[*syntax.diagnostics, finding])


def _skipped(cindex: Any, tu: Any, main: str) -> list[tuple[int, int]]:
    from hipport.parse.clang_walk import skipped_ranges

    return skipped_ranges(cindex, tu, main)


def _decide(syntax: Analysis, host: Walk, device: Walk | None, walker: TranslationUnitWalk,
            detail: SemanticDetail, data: bytes, names: CandidateNames) -> list[Reference]:
    def verdict_for(ref: Reference) -> Verdict | None:
        if in_any(ref.start, host.skipped) and device is not None \
                and not in_any(ref.start, device.skipped):
            return device.verdicts.get(ref.start)
        return host.verdicts.get(ref.start)

    kept: list[Reference] = []
    seen: set[int] = set()
    for ref in syntax.references:
        seen.add(ref.start)
        verdict = verdict_for(ref)
        if verdict is None and in_any(ref.start, host.macro_bodies):
            owner = walker.declared_owner(ref.name)
            verdict = None if owner is None else Verdict(ref.name, owner)
        if verdict is None or verdict.cuda is None:
            detail.unresolved.append(ref)
            kept.append(ref)
        elif verdict.cuda:
            detail.kept.append(ref)
            kept.append(ref)
            if verdict.via_macro:
                detail.macro_hidden[ref.name] = (verdict.via_macro, verdict.expansions)
        else:
            detail.dropped.append(ref)
    walks = [host] + ([device] if device is not None else [])
    for walk in walks:
        for offset, verdict in sorted(walk.verdicts.items()):
            if offset in seen or not verdict.cuda or walk is device and not in_any(
                    offset, host.skipped):
                continue
            seen.add(offset)
            ref = _reference(syntax, data, offset, verdict, names)
            detail.added.append(ref)
            kept.append(ref)
    kept.sort(key=lambda r: r.start)
    return kept


def _reference(syntax: Analysis, data: bytes, offset: int, verdict: Verdict,
               names: CandidateNames) -> Reference:
    """The reference syntax mode would give for this use, had it reported it
    (it drops names the file declares itself); clang's own reading otherwise."""
    end = offset + len(verdict.name)
    tree = syntax.tree
    if tree is not None:
        node = tree.root_node.descendant_for_byte_range(offset, end)
        if node is not None and node.start_byte == offset and node.end_byte == end:
            found = _syntax_reference(node, names)
            if found is not None:
                return found
    return Reference(verdict.name, offset, end, verdict.role or Role.VALUE, verdict.args)


def _syntax_reference(node: Any, names: CandidateNames) -> Reference | None:
    scratch = Analysis()
    backend = SyntaxBackend.__new__(SyntaxBackend)  # its readers need no parser
    reader = {"identifier": backend._identifier, "type_identifier": backend._type,
              "namespace_identifier": backend._namespace}.get(node.type)
    if reader is None or not names.matches_bytes(node.text or b""):
        return None  # the readers take candidate names only
    reader(node, scratch)
    return scratch.references[0] if scratch.references else None


