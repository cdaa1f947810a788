"""Code rules: conversions the mapping table cannot express as a rename.

Two kinds of rule register here:

* *file rules* look at a whole analysed file (includes, kernel launches) and
  yield findings;
* *argument rules* are named by a table entry's ``rule:`` key and add edits
  around a call's arguments (e.g. wrapping a symbol in ``HIP_SYMBOL``).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable, Iterator

from hipport.edits import Edit
from hipport.findings import Finding
from hipport.parse.model import Analysis, Reference
from hipport.settings import Settings
from hipport.table import MappingTable


@dataclass(frozen=True)
class Context:
    data: bytes
    analysis: Analysis
    table: MappingTable
    settings: Settings


FileRule = Callable[[Context], Iterator[Finding]]
# Given the call reference, returns the extra edits, or None when the call's
# shape does not allow the rewrite (the rename is then not applied either).
ArgumentRule = Callable[[bytes, Reference], "tuple[tuple[Edit, ...], str] | None"]

FILE_RULES: dict[str, FileRule] = {}
ARGUMENT_RULES: dict[str, ArgumentRule] = {}
# Expensive one-time preparations (compiling queries), run before worker
# processes fork so that they inherit the result instead of repeating it.
WARM_UPS: list[Callable[[], object]] = []


def warm_up() -> None:
    for prepare in WARM_UPS:
        prepare()


def file_rule(name: str) -> Callable[[FileRule], FileRule]:
    def register(func: FileRule) -> FileRule:
        FILE_RULES[name] = func
        return func
    return register


def argument_rule(name: str) -> Callable[[ArgumentRule], ArgumentRule]:
    def register(func: ArgumentRule) -> ArgumentRule:
        ARGUMENT_RULES[name] = func
        return func
    return register


def _import_all() -> None:
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


_import_all()
