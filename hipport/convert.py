"""Orchestration: parse -> match -> rules -> fixes -> apply -> verify."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Collection

from hipport.edits import Applicability, Edit, Fix, apply_fixes
from hipport.findings import Finding, LocatedFinding
from hipport.parse.model import Analysis, Backend, Edited
from hipport.rules import FILE_RULES, Context
from hipport.score import FileStats
from hipport.settings import Settings
from hipport.source import LineIndex, is_probably_binary
from hipport.stable_edits import needs_second_pass
from hipport.suppress import Suppressions
from hipport.table import MappingTable


@dataclass(frozen=True)
class ConversionResult:
    original: bytes
    output: bytes
    findings: tuple[LocatedFinding, ...]
    stats: FileStats
    declared: frozenset[str] = frozenset()  # CUDA-looking names the file declares itself

    @property
    def changed(self) -> bool:
        return self.output != self.original

    @property
    def failed(self) -> bool:
        return any(f.code in ("HP002", "HP003", "HP004", "HP006") for f in self.findings)


# Rules that rewrite CUDA into HIP; the second (stability) pass always runs them.
CONVERSION_RULES = frozenset({"renames", "includes", "runtime-include", "kernel-launch"})


@dataclass
class Fixes:
    findings: list[Finding]
    analysis: Analysis
    fixing_rules: frozenset[str]  # rules that produced an applicable fix


def find_fixes(data: bytes, backend: Backend, table: MappingTable, settings: Settings,
               path: Path | None = None, rules: Collection[str] | None = None,
               edited: Edited | None = None) -> Fixes:
    """All findings for ``data`` (from ``rules``, default: every rule) and its
    analysis; nothing applied."""
    analysis = backend.analyze(data, table.candidates, path, edited)
    ctx = Context(data, analysis, table, settings)
    findings: list[Finding] = list(analysis.diagnostics)
    if analysis.error_count:
        at = analysis.first_error or 0
        findings.append(Finding("HP001", f"{analysis.error_count} syntax error(s) the parser "
                                "could not read; converted the rest", at, at))
    fixing: set[str] = set()
    for name, rule in FILE_RULES.items():
        if rules is not None and name not in rules:
            continue
        found = list(rule(ctx))
        if any(_allowed(f.fix, settings) for f in found):
            fixing.add(name)
        findings.extend(found)
    if b"hipport:" in data:  # cheap test before building a line index
        index = LineIndex(data)
        findings = Suppressions.parse(data, index).filter(findings, index)
    return Fixes(findings, analysis, frozenset(fixing))


def _allowed(fix: Fix | None, settings: Settings) -> bool:
    if fix is None:
        return False
    needed = Applicability.UNSAFE if settings.unsafe_fixes else Applicability.SAFE
    return fix.applicability >= needed


def convert_bytes(data: bytes, backend: Backend, table: MappingTable, settings: Settings,
                  path: Path | None = None) -> ConversionResult:
    if is_probably_binary(data):
        finding = Finding("HP002", "binary content (NUL bytes); skipped", 0, 0)
        return apply_findings(data, [finding], settings)
    first = find_fixes(data, backend, table, settings, path)

    def verify(output: bytes, had_skips: bool, edits: tuple[Edit, ...]) -> Finding | None:
        # The second pass runs the conversion rules and whichever other rules
        # fixed something: a rule that found nothing to fix in the CUDA text
        # does not start finding things in its HIP translation (and skipping
        # the hazard rules halves the cost of this pass).
        if settings.stability_check and not had_skips and \
                not needs_second_pass(data, first.analysis, edits, table):
            return None  # stable by construction (hipport.stable_edits)
        rules = CONVERSION_RULES | first.fixing_rules
        edited = Edited(data, first.analysis, edits)
        return _verify(output, first.analysis.error_count, backend, table, settings,
                       expect_stable=not had_skips, rules=rules, edited=edited)

    return apply_findings(data, first.findings, settings, verify,
                          frozenset(first.analysis.declared))


Verifier = Callable[[bytes, bool, "tuple[Edit, ...]"], "Finding | None"]


def apply_findings(data: bytes, findings: list[Finding], settings: Settings,
                   verify: Verifier | None = None,
                   declared: frozenset[str] = frozenset()) -> ConversionResult:
    """Apply the allowed fixes of ``findings`` to ``data`` and build the result.

    ``verify(output, had_skips, applied_edits)`` may veto the output with a finding, in which
    case the original bytes are kept.  Any front end (sources, build files)
    ends here, so every file kind is applied, counted and located the same way.
    """
    fixes = [f.fix for f in findings if f.fix is not None and _allowed(f.fix, settings)]
    applied = apply_fixes(data, fixes)
    applied_ids = {id(f) for f in applied.applied}
    findings = list(findings)
    for fix in applied.skipped:
        findings.append(Finding("HP005", f"not applied, overlaps another fix: {fix.title}",
                                fix.start, fix.end))
    output = applied.data
    if output != data and verify is not None:
        edits = tuple(sorted(e for fix in applied.applied for e in fix.edits))
        problem = verify(output, bool(applied.skipped), edits)
        if problem is not None:
            findings.append(problem)
            output, applied_ids = data, set()
    return _result(data, output, LineIndex(data), findings, applied_ids, declared)


def _verify(output: bytes, errors_before: int, backend: Backend, table: MappingTable,
            settings: Settings, expect_stable: bool, rules: Collection[str] | None = None,
            edited: Edited | None = None) -> Finding | None:
    # A second pass may legitimately apply a fix the first pass refused for
    # overlapping another; only a run without refusals must be a fixed point.
    if settings.stability_check and expect_stable:
        again = find_fixes(output, backend, table, settings, rules=rules, edited=edited)
        errors_after = again.analysis.error_count
        leftover = [f for f in again.findings if _allowed(f.fix, settings)]
        if errors_after > errors_before:
            return Finding("HP003", "the converted text would not parse; file left unchanged", 0, 0)
        if leftover:
            return Finding("HP004", f"converting twice is not stable (second pass: "
                           f"{leftover[0].message}); file left unchanged", 0, 0)
        return None
    if backend.error_count(output) > errors_before:
        return Finding("HP003", "the converted text would not parse; file left unchanged", 0, 0)
    return None


def _result(data: bytes, output: bytes, index: LineIndex, findings: list[Finding],
            applied_ids: set[int], declared: frozenset[str] = frozenset()) -> ConversionResult:
    changed_lines: set[int] = set()
    located: list[LocatedFinding] = []
    for f in sorted(findings, key=lambda f: (f.start, f.end, f.code)):
        applied = f.fix is not None and id(f.fix) in applied_ids
        if applied and f.fix is not None:
            for e in f.fix.edits:
                first = index.line_of(e.start)
                last = index.line_of(max(e.start, e.end - 1))
                changed_lines.update(range(first, last + 1))
        located.append(LocatedFinding(f, index.location(f.start), index.location(f.end), applied))
    stats = FileStats.of(index.line_count, len(data), len(changed_lines), located)
    return ConversionResult(data, output, tuple(located), stats, declared)
