"""The shape of a diagnostic code: what a finding with this code *means*.

Everything the pipeline decides from a code -- does it fail the file, is it
a CUDA reference counted in the conversion rate, does it belong in the
unmapped-API ledger, can its findings be fixed -- is an attribute here, so
no module has to spell a code's meaning as a test on its digits."""
from __future__ import annotations

import enum
from dataclasses import dataclass


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

    @property
    def unconverted(self) -> bool:
        """Its findings name a CUDA API that stays as it was."""
        return self.ledger is not None and not self.ledger.converts
