"""The one registry of code rules, filled by discovery, never by a half-
imported package.

Two kinds of rule register here:

* *file rules* look at a whole analysed file (includes, kernel launches,
  hazards) and yield findings;
* *argument rules* are named by a table entry's ``rule:`` key and add edits
  around a call's arguments (e.g. wrapping a symbol in ``HIP_SYMBOL``).

A rule module registers with the decorators below when it is imported;
``discover`` imports every module under ``hipport.rules`` once, the first
time anyone asks for the rules.  Registering a name twice is an error."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import PurePath
from typing import Callable, Iterator, Mapping, NamedTuple, TypeVar

from hipport.edits import Edit
from hipport.findings import Finding
from hipport.parse.model import Analysis, Reference
from hipport.settings import Settings
from hipport.table import MappingTable
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


FileRule = Callable[[Context], Iterator[Finding]]
# Given the file, the call reference and the target ROCm release (None: no
# version checks), returns the extra edits, or None when the call's shape does
# not allow the rewrite (the rename is then not applied either).
ArgumentRule = Callable[[bytes, Reference, "Release | None"], "ArgumentRewrite | None"]
WarmUp = Callable[[], object]

FILE_RULES: dict[str, FileRule] = {}
ARGUMENT_RULES: dict[str, ArgumentRule] = {}
# Expensive one-time preparations (compiling queries), run before worker
# processes fork so that they inherit the result instead of repeating it.
WARM_UPS: dict[str, WarmUp] = {}

_T = TypeVar("_T")
_discovered = False


def _register(registry: dict[str, _T], kind: str, name: str) -> Callable[[_T], _T]:
    def register(func: _T) -> _T:
        if name in registry:
            raise RuntimeError(f"{kind} {name!r} is registered twice")
        registry[name] = func
        return func
    return register


def file_rule(name: str) -> Callable[[FileRule], FileRule]:
    return _register(FILE_RULES, "file rule", name)


def argument_rule(name: str) -> Callable[[ArgumentRule], ArgumentRule]:
    return _register(ARGUMENT_RULES, "argument rule", name)


def warm_up_step(name: str) -> Callable[[WarmUp], WarmUp]:
    return _register(WARM_UPS, "warm-up step", name)


def discover() -> None:
    """Import every rule module (once): importing is registering."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import hipport.rules as package

    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)


def file_rules() -> Mapping[str, FileRule]:
    discover()
    return FILE_RULES


def argument_rules() -> Mapping[str, ArgumentRule]:
    discover()
    return ARGUMENT_RULES


def warm_up() -> None:
    discover()
    for prepare in WARM_UPS.values():
        prepare()
