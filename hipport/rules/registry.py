"""The one registry of code rules, filled by discovery, never by a half-
imported package.

Two kinds of rule register here:

* *file rules* look at a whole analysed file (includes, kernel launches,
  hazards) and yield findings; each declares the codes of its findings and
  its role (it rewrites CUDA into HIP, or it reports a hazard);
* *argument rules* are named by a table entry's ``rule:`` key and add edits
  around a call's arguments (e.g. wrapping a symbol in ``HIP_SYMBOL``); each
  declares the shape of its edit as data (``hipport.rules.shapes``).

A rule module registers with the decorators below when it is imported;
``discover`` imports every module under ``hipport.rules`` once, the first
time anyone asks for the rules.  Registering a name twice is an error."""
from __future__ import annotations

import enum
import functools
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Callable, Iterable, Iterator, Mapping, NamedTuple, TypeVar

from hipport.codes import CODES
from hipport.edits import Edit
from hipport.findings import Finding
from hipport.parse.model import Analysis, Reference
from hipport.rules.shapes import Shape
from hipport.settings import Settings
from hipport.table import MappingTable
from hipport.table.schema import Mapping as Entry
from hipport.table.versions import Release


@dataclass(frozen=True)
class Context:
    data: bytes
    analysis: Analysis
    table: MappingTable
    settings: Settings
    # Where the text was read from (its suffix tells a header from a .cu file);
    # None for text given without a name.
    path: PurePath | None = None
    # What several rules compute from this text once (the hazard queries'
    # matches, say), kept for this run of the rules only: a module-level cache
    # keyed by the tree kept the file's matches and trees alive after it was
    # done (a 50 MB file peaked at 9.2 GB).
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)


class ArgumentRewrite(NamedTuple):
    edits: tuple[Edit, ...]  # besides the rename
    detail: str  # what was done, for the finding's message
    # Why this call's rewrite may change what the code does ("" when it
    # cannot).  The rewrite is still applied, because what is left would
    # compile on no target, and the reason is reported as a finding of its
    # own (HP411) that a person must confirm: `convert --strict` fails on it.
    caveat: str = ""
    # The HIP name to emit instead of the entry's, when this call's arguments
    # pick another HIP function (`cudaEventCreate(&e, flags)`).
    hip: str | None = None
    # Why no HIP call can say what this one does (cuDNN's NCHW_VECT_C layout:
    # MIOpen has none): the call is left unchanged and the reason reported as
    # a blocker (``blocker_code``) instead of a rename; "" when the rewrite holds.
    blocker: str = ""
    blocker_code: str = "HP218"  # HP906: the HIP call needs what hipport cannot find here


Check = Callable[[Context], Iterator[Finding]]
# Given the file, the call reference and the target ROCm release (None: no
# version checks), returns the extra edits, or None when the call's shape does
# not allow the rewrite (the rename is then not applied either).
Rewrite = Callable[[bytes, Reference, "Release | None"], "ArgumentRewrite | None"]
WarmUp = Callable[[], object]


class RuleRole(enum.Enum):
    """What a file rule is for."""

    # Turns CUDA into HIP (renames, includes, launches): converting its own
    # output must find nothing more, so it always runs in the stability pass.
    REWRITE = "rewrite"
    # Reports what renaming cannot fix; the pass checks it only when one of
    # its fixes was applied.
    HAZARD = "hazard"


@dataclass(frozen=True)
class FileRule:
    name: str
    check: Check
    codes: frozenset[str]  # every code its findings may carry
    role: RuleRole

    @property
    def stability_relevant(self) -> bool:
        """Always run again on the converted text (not only when it fixed something)."""
        return self.role is RuleRole.REWRITE

    def __call__(self, ctx: Context) -> Iterator[Finding]:
        return self.check(ctx)


@dataclass(frozen=True)
class ArgumentRule:
    name: str
    rewrite: Rewrite
    # What the rewrite does to the call, as data (hipport.rules.shapes): the
    # compat header turns it into a function-like macro; None when no macro
    # can say it.
    shape: Shape | None

    def __call__(self, data: bytes, ref: Reference,
                 target: Release | None) -> ArgumentRewrite | None:
        return self.rewrite(data, ref, target)


# An argument rule whose edits the entry's own data says (its `casts:`): made
# for each entry that names it.
EntryRule = Callable[[Entry], ArgumentRule]

FILE_RULES: dict[str, FileRule] = {}
ARGUMENT_RULES: dict[str, ArgumentRule] = {}
ENTRY_ARGUMENT_RULES: dict[str, EntryRule] = {}
# Expensive one-time preparations (compiling queries), run before worker
# processes fork so that they inherit the result instead of repeating it.
WARM_UPS: dict[str, WarmUp] = {}

_T = TypeVar("_T")
_discovered = False


def _register(registry: dict[str, _T], kind: str, name: str, item: _T) -> None:
    if name in registry:
        raise RuntimeError(f"{kind} {name!r} is registered twice")
    registry[name] = item


def file_rule(name: str, *, codes: Iterable[str],
              role: RuleRole = RuleRole.HAZARD) -> Callable[[Check], Check]:
    """Registers a file rule; ``codes`` are every code its findings carry."""
    declared = frozenset(codes)
    unknown = sorted(declared - set(CODES))
    if unknown:
        raise RuntimeError(f"file rule {name!r} declares unknown codes: {', '.join(unknown)}")

    def register(check: Check) -> Check:
        _register(FILE_RULES, "file rule", name, FileRule(name, check, declared, role))
        return check
    return register


def argument_rule(name: str, shape: Shape | None = None) -> Callable[[Rewrite], Rewrite]:
    def register(rewrite: Rewrite) -> Rewrite:
        _register(ARGUMENT_RULES, "argument rule", name, ArgumentRule(name, rewrite, shape))
        return rewrite
    return register


def entry_argument_rule(name: str) -> Callable[[EntryRule], EntryRule]:
    def register(make: EntryRule) -> EntryRule:
        _register(ENTRY_ARGUMENT_RULES, "argument rule", name, make)
        return make
    return register


def warm_up_step(name: str) -> Callable[[WarmUp], WarmUp]:
    def register(prepare: WarmUp) -> WarmUp:
        _register(WARM_UPS, "warm-up step", name, prepare)
        return prepare
    return register


def discover() -> None:
    """Import every rule module (once): importing is registering."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = __name__.rsplit(".", 1)[0]
    folder = str(Path(__file__).parent)
    for info in pkgutil.walk_packages([folder], package + "."):
        importlib.import_module(info.name)


def file_rules() -> Mapping[str, FileRule]:
    discover()
    return FILE_RULES


def stability_rules() -> frozenset[str]:
    """The rules the stability pass always runs (those that rewrite)."""
    return frozenset(name for name, rule in file_rules().items() if rule.stability_relevant)


def argument_rules() -> Mapping[str, ArgumentRule]:
    discover()
    return ARGUMENT_RULES


@functools.lru_cache(maxsize=4096)
def rule_for(entry: Entry) -> ArgumentRule | None:
    """The argument rule ``entry`` names (``rule:``, or the one its ``casts:`` imply)."""
    if entry.rule is None:
        return None
    discover()
    make = ENTRY_ARGUMENT_RULES.get(entry.rule)
    return make(entry) if make is not None else ARGUMENT_RULES[entry.rule]


def warm_up() -> None:
    discover()
    for prepare in WARM_UPS.values():
        prepare()
