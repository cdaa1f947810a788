"""One file: parse -> references -> rules -> findings -> apply fixes -> verify."""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Collection, Iterable

from hipport.codes import CODES
from hipport.diagnostics.model import FileEffect
from hipport.edits import Applicability, AppliedFixes, Edit, Fix, apply_fixes
from hipport.findings import Finding, LocatedFinding
from hipport.parse.model import Analysis, Backend, Edited
from hipport.rules import Context, file_rules, stability_rules
from hipport.rules.own_hip import keep_own_hip
from hipport.score import FileStats
from hipport.settings import Settings
from hipport.source import LineIndex, not_text_reason
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
    def effect(self) -> FileEffect:
        return effect_of(self.findings)


def effect_of(findings: Iterable[LocatedFinding]) -> FileEffect:
    """The strongest effect of ``findings`` on their file (FAILED > SKIPPED)."""
    effects = {CODES[f.code].effect for f in findings}
    for effect in (FileEffect.FAILED, FileEffect.SKIPPED):
        if effect in effects:
            return effect
    return FileEffect.NONE


@dataclass
class Scan:
    findings: list[Finding]
    analysis: Analysis
    fixing_rules: frozenset[str]  # rules that produced an applicable fix


def collect_findings(data: bytes, backend: Backend, table: MappingTable, settings: Settings,
                     path: Path | None = None, rules: Collection[str] | None = None,
                     edited: Edited | None = None) -> Scan:
    """All findings for ``data`` (from ``rules``, default: every rule) and its
    analysis; nothing applied."""
    analysis = backend.analyze(data, table.candidates, path, edited)
    ctx = Context(data, analysis, table, settings, path)
    findings: list[Finding] = list(analysis.diagnostics)
    if analysis.error_count:
        at = analysis.first_error or 0
        findings.append(Finding("HP001", f"{analysis.error_count} syntax error(s) the parser "
                                "could not read; converted the rest", at, at))
    fixing: set[str] = set()
    for name, rule in file_rules().items():
        if rules is not None and name not in rules:
            continue
        found = list(rule(ctx))
        if any(allowed(f.fix, settings) for f in found):
            fixing.add(name)
        findings.extend(found)
    findings = keep_own_hip(findings, analysis.own_hip)
    if b"hipport:" in data:  # cheap test before building a line index
        index = LineIndex(data)
        findings = Suppressions.parse(data, index).filter(findings, index)
    return Scan(findings, analysis, frozenset(fixing))


def allowed(fix: Fix | None, settings: Settings) -> bool:
    """Whether ``fix`` is applied under ``settings`` (unsafe ones need --unsafe-fixes)."""
    if fix is None:
        return False
    needed = Applicability.UNSAFE if settings.unsafe_fixes else Applicability.SAFE
    return fix.applicability >= needed


class Check(enum.Enum):
    """How a converted file is verified before it may replace the original."""

    SKIP = "skip"  # every edit is stable by construction (hipport.stable_edits)
    REPARSE = "reparse"  # the output must not parse worse than the input
    SECOND_PASS = "second-pass"  # ... and converting it again must change nothing


def choose_check(settings: Settings, had_skips: bool, stable_by_construction: bool) -> Check:
    """The one place that decides.  A second pass may legitimately apply a
    fix the first refused for overlapping another, so a run with refusals
    (or ``--fast``) only re-parses."""
    if stable_by_construction:
        return Check.SKIP
    if had_skips or not settings.stability_check:
        return Check.REPARSE
    return Check.SECOND_PASS


def introduced_parse_error(what: str = "text") -> Finding:
    return Finding("HP003", f"the converted {what} would not parse; file left unchanged", 0, 0)


def unstable(second: Finding) -> Finding:
    return Finding("HP004", f"converting twice is not stable (second pass: {second.message}); "
                   "file left unchanged", 0, 0)


# Above this size the check parses the output afresh, after the first
# pass's tree is released.  An incremental reparse shares the subtrees the
# edits left alone, but a huge file's edits are everywhere: its first tree
# (about 20 bytes per byte) and the reparsed one (9-13 more) together were
# the peak of its conversion, and the reparse took as long as a fresh parse.
# Below it, the tree is reused (cheaper when the edits are few).
REUSE_TREE_BYTES = 2_000_000


def release_tree(analysis: Analysis) -> None:
    """Lets the first pass's syntax tree go before the output is parsed:
    nothing after the check reads it (the rules that needed it have run; a
    front end given an ``Edited`` with no tree parses afresh)."""
    analysis.tree = None


# Vetoes an output (returns the finding that says why) or accepts it (None).
Verifier = Callable[[bytes, bool, "tuple[Edit, ...]"], "Finding | None"]


@dataclass(frozen=True)
class SourceVerifier:
    """Verifies a source's conversion against its first scan."""

    data: bytes
    first: Scan
    backend: Backend
    table: MappingTable
    settings: Settings
    force: Check | None = None  # tests: this check whatever choose_check says

    def __call__(self, output: bytes, had_skips: bool,
                 edits: tuple[Edit, ...]) -> Finding | None:
        check = self.force or choose_check(
            self.settings, had_skips,
            not needs_second_pass(self.data, self.first.analysis, edits, self.table))
        errors_before = self.first.analysis.error_count
        if check is Check.SKIP:
            return None
        if check is Check.REPARSE or len(self.data) > REUSE_TREE_BYTES:
            release_tree(self.first.analysis)  # the output is parsed afresh
        if check is Check.REPARSE:
            worse = self.backend.error_count(output) > errors_before
            return introduced_parse_error() if worse else None
        # The second pass runs the conversion rules and whichever other rules
        # fixed something: a rule that found nothing to fix in the CUDA text
        # does not start finding things in its HIP translation (and skipping
        # the hazard rules halves the cost of this pass).
        again = collect_findings(output, self.backend, self.table, self.settings,
                                 rules=stability_rules() | self.first.fixing_rules,
                                 edited=Edited(self.data, self.first.analysis, edits))
        if again.analysis.error_count > errors_before:
            return introduced_parse_error()
        leftover = [f for f in again.findings if allowed(f.fix, self.settings)]
        return unstable(leftover[0]) if leftover else None


def unreadable_result(data: bytes, settings: Settings) -> ConversionResult | None:
    """Bytes that are not source text (binary, UTF-16): left as they are, HP002."""
    unreadable = not_text_reason(data)
    if unreadable is None:
        return None
    return apply_findings(data, [Finding("HP002", f"{unreadable}; skipped", 0, 0)], settings)


# A last step over a file's findings before they are applied: the findings
# (some given a fix they share, say), and those to count as converted
# without a fix of their own (by id).
Prepare = Callable[[bytes, "Scan"], "tuple[list[Finding], frozenset[int]]"]


def convert_bytes(data: bytes, backend: Backend, table: MappingTable, settings: Settings,
                  path: Path | None = None, prepare: Prepare | None = None) -> ConversionResult:
    """CUDA in, HIP out (the rewrite strategy's conversion of one source)."""
    unreadable = unreadable_result(data, settings)
    if unreadable is not None:
        return unreadable
    first = collect_findings(data, backend, table, settings, path)
    findings, covered = prepare(data, first) if prepare else (first.findings, frozenset())
    verify = SourceVerifier(data, first, backend, table, settings)
    return apply_findings(data, findings, settings, verify,
                          frozenset(first.analysis.declared), covered)


def apply_findings(data: bytes, findings: list[Finding], settings: Settings,
                   verify: Verifier | None = None,
                   declared: frozenset[str] = frozenset(),
                   covered: frozenset[int] = frozenset()) -> ConversionResult:
    """Apply the allowed fixes of ``findings`` to ``data`` and build the result.

    ``verify(output, had_skips, applied_edits)`` may veto the output with a finding, in which
    case the original bytes are kept.  Any front end (sources, build files)
    ends here, so every file kind is applied, counted and located the same way.
    """
    # Several findings may share one fix (a single-source build block): apply it once.
    fixes = list({id(f.fix): f.fix for f in findings
                  if f.fix is not None and allowed(f.fix, settings)}.values())
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
        withheld = _withholding(data, findings, applied.applied, verify) \
            if problem is not None and problem.code == "HP003" and \
            isinstance(verify, SourceVerifier) else None
        if withheld is not None:
            output, applied_ids, notes = withheld
            findings += notes
        elif problem is not None:
            findings.append(problem)
            output, applied_ids, covered = data, set(), frozenset()
    return _result(data, output, LineIndex(data), findings, applied_ids | covered, declared)


def _withholding(data: bytes, findings: list[Finding], fixes: tuple[Fix, ...],
                 verify: SourceVerifier) -> tuple[bytes, set[int], list[Finding]] | None:
    """The output without those fixes of one code that make the text parse
    worse (HP003), the code's others put back one by one where the parse
    stays as good: (output, applied fix ids, an HP011 at each fix left out);
    None when no single code's fixes explain it."""
    code_of = {id(f.fix): f.code for f in findings if f.fix is not None}
    by_code: dict[str, list[Fix]] = {}
    for fix in fixes:
        by_code.setdefault(code_of.get(id(fix), ""), []).append(fix)
    # Only the parse is checked: a second pass would find the left-out fixes again.
    reparse = replace(verify, force=Check.REPARSE)

    def parses(chosen: list[Fix]) -> AppliedFixes | None:
        applied = apply_fixes(data, chosen)
        edits = tuple(sorted(e for fix in applied.applied for e in fix.edits))
        ok = not applied.skipped and reparse(applied.data, True, edits) is None
        return applied if ok else None

    for code, suspects in sorted(by_code.items()):
        kept = [fix for fix in fixes if code_of.get(id(fix), "") != code]
        best = parses(kept) if kept else None
        if best is None:
            continue
        left_out = suspects if len(suspects) > _MOST_PUT_BACK else []
        for fix in suspects if not left_out else ():
            trial = parses([*kept, fix])
            if trial is None:
                left_out.append(fix)
            else:
                kept.append(fix)
                best = trial
        notes = [Finding("HP011", "not applied: with it the converted text would not parse "
                         f"({fix.title or code})", fix.start, fix.end) for fix in left_out]
        return best.data, {id(fix) for fix in best.applied}, notes
    return None


# A code's fixes tried back one by one (a parse each) when it has no more.
_MOST_PUT_BACK = 64


def _result(data: bytes, output: bytes, index: LineIndex, findings: list[Finding],
            applied_ids: set[int], declared: frozenset[str] = frozenset()) -> ConversionResult:
    changed_lines: set[int] = set()
    edited_lines: set[int] = set()
    located: list[LocatedFinding] = []
    for f in sorted(findings, key=lambda f: (f.start, f.end, f.code)):
        applied = (f.fix is not None and id(f.fix) in applied_ids) or id(f) in applied_ids
        if applied and f.fix is not None:
            for e in f.fix.edits:
                first = index.line_of(e.start)
                last = index.line_of(max(e.start, e.end - 1))
                changed_lines.update(range(first, last + 1))
                if not _inserts_whole_lines(data, e):
                    edited_lines.update(range(first, last + 1))
        located.append(LocatedFinding(f, index.location(f.start), index.location(f.end), applied))
    stats = FileStats.of(index.line_count, len(data), len(changed_lines), located,
                         edited_lines=sum(1 for n in edited_lines if n < index.line_count))
    return ConversionResult(data, output, tuple(located), stats, declared)


def _inserts_whole_lines(data: bytes, edit: Edit) -> bool:
    """``edit`` adds lines between two lines of ``data`` (or before the first,
    or after the last) and leaves every byte of theirs as it was."""
    if edit.start != edit.end:
        return False
    at, text = edit.start, edit.text
    if not text:
        return True
    line_start = at == 0 or data[at - 1:at] == b"\n"
    line_end = at == len(data) or data[at:at + 1] in (b"\n", b"\r")
    return (line_start and text.endswith(b"\n")) or (line_end and text.startswith((b"\n", b"\r\n")))
