"""The shape of a diagnostic code: what a finding with this code *means*.

Everything the pipeline decides from a code -- does it fail the file, is it
a CUDA reference counted in the conversion rate, does it belong in the
unmapped-API ledger, can its findings be fixed -- is an attribute here, so
no module has to spell a code's meaning as a test on its digits."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Mapping


class Severity(enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Category(enum.Enum):
    TOOL = "tool"  # the input or hipport itself (HP0xx)
    RENAME = "rename"  # a CUDA name with a HIP counterpart (HP1xx, HP2xx)
    CODE_RULE = "code-rule"  # a construct a code rule rewrites (HP3xx)
    HAZARD = "hazard"  # code that behaves differently on AMD GPUs (HP4xx, HP5xx)
    BUILD = "build"  # CMake and Makefiles (HP6xx)
    POLYFILL = "polyfill"  # a CUDA API emulated by the generated polyfill header (HP7xx)
    LEDGER = "ledger"  # a CUDA API left for a person, or converted with a caveat (HP9xx)


class FileEffect(enum.Enum):
    """What a finding does to its file."""

    NONE = "none"
    SKIPPED = "skipped"  # not converted and not counted as failed (binary content)
    FAILED = "failed"  # left unchanged; the run fails


class Ledger(enum.Enum):
    """A ledger row's status: why a person must look at this API."""

    UNMAPPED = "unmapped"  # not in the catalogue (may be the project's own name)
    UNSUPPORTED = "unsupported"
    REMOVED = "removed"
    ROCM_TOO_OLD = "rocm-too-old"
    DEPRECATED = "deprecated"  # converted, to a HIP API ROCm deprecates
    REVIEW = "review"  # convertible with --unsafe-fixes, after a look
    EMULATED = "emulated"  # no HIP equivalent, but the polyfill header emulates it

    @property
    def converts(self) -> bool:
        """The API is (or can be) converted: the row is a caveat, not a gap."""
        return self in (Ledger.DEPRECATED, Ledger.REVIEW, Ledger.EMULATED)


class Work(enum.Enum):
    """What a finding of the code leaves for a person, as the effort estimate
    (``hipport report``) bills it."""

    NONE = "none"  # nothing: a note, or a build-file edit hipport made
    REVIEW = "review"  # converted, emulated or harmless as it is: read it, test the file
    BREAKS_BUILD = "breaks-build"  # the converted tree does not build until a person acts
    CHANGES_RESULTS = "changes-results"  # builds, but computes something else on AMD GPUs

    @property
    def blocker(self) -> bool:
        """A person must change the code before the port is done."""
        return self in (Work.BREAKS_BUILD, Work.CHANGES_RESULTS)

    @property
    def described(self) -> str:
        return {Work.NONE: "nothing left to do",
                Work.REVIEW: "review (billed per file)",
                Work.BREAKS_BUILD: "blocker: the build fails until a person acts",
                Work.CHANGES_RESULTS: "blocker: builds, but results change on AMD GPUs"}[self]


class Fixable(enum.Enum):
    """Which fixes the code's findings can carry (ruff's fix availability
    with the applicability folded in)."""

    NEVER = "never"
    SAFE = "safe"  # applied by default (where the finding has a fix)
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes
    EITHER = "either"  # safe or unsafe, finding by finding


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    summary: str
    severity: Severity
    # Long form for `hipport explain` and docs: why it matters, what to do,
    # an example. Markdown.
    explanation: str = ""
    category: Category = Category.TOOL
    effect: FileEffect = FileEffect.NONE
    # A CUDA reference: counted in the conversion rate (converted when its
    # fix was applied, unconverted when it was not or has none).
    reference: bool = False
    ledger: Ledger | None = None
    fixable: Fixable = Fixable.NEVER
    # An applied fix is listed too, not only with --verbose: it chose
    # something for the user (which branch of a version test is compiled).
    announced: bool = False
    # A change hipport makes by default because nothing else compiles, but
    # that a person must confirm (a warp mask dropped): `convert --strict`
    # fails on its findings as on an unconverted reference.
    confirm: bool = False

    @property
    def listed_applied(self) -> bool:
        """`convert` lists its applied fixes without -v too: announced, or a
        caveat that still needs reading (a hazard's fix, an API the target
        deprecates)."""
        return (self.announced or self.category is Category.HAZARD
                or self.ledger is Ledger.DEPRECATED)

    # What its findings leave for a person (the report's blockers and review);
    # None: what its category and ledger status imply (``Code.work_left``).
    # A code for an API a polyfill emulates declares Work.REVIEW.
    work: Work | None = None

    @property
    def work_left(self) -> Work:
        """``work`` as declared, else what the code's other attributes imply:
        an API left unconverted breaks the build, a converted one (a rename,
        a rewrite, a deprecated target) is review, a build-file construct
        hipport left as it was breaks the build, a hazard changes results."""
        if self.work is not None:
            return self.work
        if self.ledger is not None:
            return Work.BREAKS_BUILD if self.unconverted else Work.REVIEW
        if self.effect is FileEffect.FAILED:  # the file was not converted
            return Work.BREAKS_BUILD
        return _CATEGORY_WORK[self.category](self)

    @property
    def unconverted(self) -> bool:
        """Its findings name a CUDA API that stays as it was."""
        return self.ledger is not None and not self.ledger.converts


_CATEGORY_WORK: Mapping[Category, Callable[[Code], Work]] = {
    Category.TOOL: lambda code: Work.NONE,
    Category.RENAME: lambda code: Work.REVIEW,
    Category.CODE_RULE: lambda code: Work.REVIEW,
    Category.HAZARD: lambda code: Work.CHANGES_RESULTS,
    Category.BUILD: lambda code: Work.NONE if code.fixable is Fixable.SAFE else Work.BREAKS_BUILD,
    Category.LEDGER: lambda code: Work.BREAKS_BUILD,
    Category.POLYFILL: lambda code: Work.NONE,  # the header included (HP707)
}
