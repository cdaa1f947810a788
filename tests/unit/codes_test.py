"""What a code means is data on the code (hipport.diagnostics.model): these
tests pin the meanings the pipeline relies on, and check that every finding
hipport produces on the examples, the golden cases and the hazard and
build-file samples agrees with its code's declared fixes."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.buildfiles import convert_build_file, detect_build_kind
from hipport.codes import CODES, Code, Severity
from hipport.diagnostics.model import Category, FileEffect, Fixable, Ledger, Work
from hipport.edits import Applicability
from hipport.settings import Settings

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted(p for root in ("examples", "tests/cases", "tests/semantic/cases")
                 for p in (REPO / root).rglob("*") if p.suffix in (".cu", ".cuh"))
BUILD_FILES = sorted(p for p in (REPO / "examples").rglob("*") if detect_build_kind(p))


def test_file_effects():
    failing = {c.code for c in CODES.values() if c.effect is FileEffect.FAILED}
    assert failing == {"HP003", "HP004", "HP006", "HP008", "HP009"}
    assert {c.code for c in CODES.values() if c.effect is FileEffect.SKIPPED} == {"HP002"}


def test_the_ledger_and_the_conversion_rate():
    ledger = {c.code: c.ledger for c in CODES.values() if c.ledger is not None}
    assert ledger == {"HP900": Ledger.UNMAPPED, "HP901": Ledger.UNSUPPORTED,
                      "HP902": Ledger.DEPRECATED, "HP903": Ledger.REMOVED,
                      "HP904": Ledger.REVIEW, "HP905": Ledger.ROCM_TOO_OLD,
                      "HP705": Ledger.UNSUPPORTED, "HP706": Ledger.ROCM_TOO_OLD,
                      "HP218": Ledger.UNSUPPORTED, "HP906": Ledger.UNSUPPORTED,
                      **{f"HP70{n}": Ledger.EMULATED for n in "1234"}}
    assert {c.code for c in CODES.values() if c.unconverted} == {"HP900", "HP901", "HP903",
                                                                "HP905", "HP705", "HP706",
                                                                "HP218", "HP906"}
    references = {c.code for c in CODES.values() if c.reference}
    assert {"HP101", "HP201", "HP212", "HP301", "HP302", "HP900", "HP904"} <= references
    assert not references & {"HP001", "HP303", "HP306", "HP401", "HP601"}


@pytest.mark.parametrize("category, numbers", [
    (Category.TOOL, "0"), (Category.RENAME, "12"), (Category.CODE_RULE, "3"),
    (Category.HAZARD, "45"), (Category.BUILD, "6"), (Category.POLYFILL, "7"),
    (Category.LEDGER, "9"),
])
def test_categories_follow_the_numbering(category: Category, numbers: str):
    # The numbering documents the categories; nothing reads meaning from it.
    assert {c.code[2] for c in CODES.values() if c.category is category} <= set(numbers)


def _check_fixes(findings, where: str) -> set[str]:
    seen = set()
    for f in findings:
        code, fix = CODES[f.code], f.finding.fix
        seen.add(f.code)
        if fix is None:
            continue
        assert code.fixable is not Fixable.NEVER, f"{where}: {f.code} carries a fix"
        if code.fixable is Fixable.SAFE:
            assert fix.applicability is Applicability.SAFE, f"{where}: {f.code}"
        elif code.fixable is Fixable.UNSAFE:
            assert fix.applicability is Applicability.UNSAFE, f"{where}: {f.code}"
    return seen


def test_findings_agree_with_their_codes_fixes():
    seen: set[str] = set()
    for path in SOURCES:
        for unsafe in (False, True):
            result = convert_source(path.read_bytes(), Settings(unsafe_fixes=unsafe))
            seen |= _check_fixes(result.findings, str(path))
    for path in BUILD_FILES:
        result = convert_build_file(path.read_bytes(), detect_build_kind(path) or "",
                                    Settings())
        seen |= _check_fixes(result.findings, str(path))
    # The samples exercise every kind of fix: the test cannot pass vacuously.
    fixable = {c for c in seen if CODES[c].fixable is not Fixable.NEVER}
    assert {"HP101", "HP302", "HP401", "HP601"} <= fixable, sorted(seen)


def test_what_each_code_leaves_for_a_person():
    """The effort estimate's blockers and review come from this attribute,
    never from a code's digits."""
    work = {c.code: c.work_left for c in CODES.values()}
    # An API left as it was stops the build; a converted one is review.
    assert {c for c, w in work.items() if CODES[c].ledger is not None and w.blocker} == \
        {"HP900", "HP901", "HP903", "HP905", "HP705", "HP706", "HP218", "HP906"}
    # An API the polyfill header emulates is review, like a rename.
    assert {work[f"HP70{n}"] for n in "1234"} == {Work.REVIEW}
    assert work["HP902"] is work["HP904"] is work["HP101"] is work["HP301"] is Work.REVIEW
    # A compile error after conversion, a file hipport could not convert.
    assert work["HP020"] is work["HP003"] is work["HP006"] is Work.BREAKS_BUILD
    # Hazards: what the compiler rejects, what silently computes something else, and
    # what only needs a look.
    assert {c for c, w in work.items() if w is Work.BREAKS_BUILD and c.startswith("HP4")} \
        == {"HP407", "HP412", "HP413", "HP415", "HP416", "HP417", "HP418", "HP420"}
    assert work["HP502"] is work["HP507"] is Work.BREAKS_BUILD
    # An architecture test answered is review; the stub it leaves the AMD build, a blocker.
    assert work["HP317"] is Work.REVIEW and work["HP318"] is Work.BREAKS_BUILD
    assert {"HP401", "HP402", "HP404", "HP405", "HP408", "HP409"} <= \
        {c for c, w in work.items() if w is Work.CHANGES_RESULTS}
    assert work["HP506"] is work["HP509"] is Work.REVIEW
    # Build files: conversions hipport made leave nothing; constructs it left, a blocker.
    assert work["HP601"] is work["HP615"] is Work.NONE
    assert work["HP650"] is work["HP654"] is Work.BREAKS_BUILD
    # Problems of the run itself are no porting work.
    assert work["HP008"] is work["HP009"] is work["HP010"] is Work.NONE


def test_a_code_that_declares_no_work_takes_its_categorys():
    """A new code (an API a polyfill emulates, say) is billed sensibly before
    anyone declares its work; declaring it wins."""
    plain = Code("HP799", "x", "x", Severity.WARNING, category=Category.HAZARD)
    assert plain.work_left is Work.CHANGES_RESULTS
    emulated = Code("HP799", "x", "x", Severity.INFO, category=Category.CODE_RULE)
    assert emulated.work_left is Work.REVIEW
    assert replace(plain, work=Work.REVIEW).work_left is Work.REVIEW
    left = Code("HP799", "x", "x", Severity.WARNING, category=Category.BUILD)
    assert left.work_left is Work.BREAKS_BUILD
    assert replace(left, fixable=Fixable.SAFE).work_left is Work.NONE
