"""From a run's findings to the violations a check reports.

Order of the filters: suppressions (already applied by the conversion), the
code selection (policy / fail-on / ignore), then the baseline and the diff:
a violation fails the check only if the baseline does not know it and, when
a diff is given, it sits on a line the diff adds."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from hipport.check.baseline import Baseline, Fingerprint, fingerprint, relative_key
from hipport.check.model import Violation
from hipport.check.policy import FailurePolicy
from hipport.findings import LocatedFinding
from hipport.jobs import FileResult, Outcome
from hipport.score import not_read
from hipport.source import LineIndex


@dataclass(frozen=True)
class CheckedFile:
    display: str  # as shown to the user
    path: Path  # the file in the tree (what the baseline and the diff name)
    source: Path  # where its bytes are read (an index copy for --staged)


@dataclass
class Verdict:
    new: list[Violation] = field(default_factory=list)
    known: int = 0  # violations the baseline accounts for
    outside_diff: int = 0  # violations on lines the diff does not add
    found: list[tuple[Fingerprint, str]] = field(default_factory=list)  # every violation
    stale: int = 0  # baseline entries of checked files that no longer occur
    problems: list[str] = field(default_factory=list)  # files hipport could not analyse
    files: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.new)


def evaluate(results: Sequence[FileResult], files: dict[str, CheckedFile],
             selection: FailurePolicy, baseline: Baseline | None, baseline_root: Path,
             added: dict[Path, frozenset[int]] | None) -> Verdict:
    verdict = Verdict(files=len(results))
    for result in results:
        if result.outcome is Outcome.FAILED:
            verdict.problems.append(f"{result.display}: {result.error or 'not analysed'}")
        elif (unread := not_read(result.findings)) is not None:
            # binary or UTF-16: skipped, so not checked either
            verdict.problems.append(f"{result.display}: {unread.finding.message}")
        failing = [f for f in result.findings if selection.fails(f.code)]
        if not failing:
            continue
        file = files[result.display]
        _judge(verdict, file, failing, baseline, baseline_root,
               None if added is None else added.get(file.path, frozenset()))
    # Once, at the end: sorting after every file made big trees quadratic.
    verdict.new.sort(key=lambda v: (v.path, v.line, v.column, v.code))
    if baseline is not None:
        checked = {relative_key(f.path, baseline_root) for f in files.values()}
        seen: dict[Fingerprint, int] = {}
        for fp, _ in verdict.found:
            seen[fp] = seen.get(fp, 0) + 1
        verdict.stale = sum(max(0, n - seen.get(fp, 0)) for fp, n in baseline.counts.items()
                            if fp.path in checked)
    return verdict


def _judge(verdict: Verdict, file: CheckedFile, failing: list[LocatedFinding],
           baseline: Baseline | None, root: Path, added: frozenset[int] | None) -> None:
    try:
        data = file.source.read_bytes()
    except OSError as exc:
        verdict.problems.append(f"{file.display}: cannot read: {exc.strerror}")
        data = b""
    index = LineIndex(data)
    key = relative_key(file.path, root)
    lines = index.line_count
    items = []
    for f in failing:
        line = f.location.line
        text = index.line_text(line) if 1 <= line <= max(lines, 1) and data else b""
        fp = fingerprint(key, f.code, f.finding.cuda_name, text)
        verdict.found.append((fp, f.code))
        items.append((f, fp, added is None or line in added))
    # The baseline absorbs violations on untouched lines first, so that copying
    # a known line reports the copy, not the original.
    items.sort(key=lambda item: (item[2], item[0].location.line, item[0].location.column))
    known = baseline.known(fp for _, fp, _ in items) if baseline is not None \
        else [False] * len(items)
    for (f, fp, on_added), is_known in zip(items, known):
        if is_known:
            verdict.known += 1
        elif not on_added:
            verdict.outside_diff += 1
        else:
            verdict.new.append(Violation.of(file.display, f, fp.short()))
