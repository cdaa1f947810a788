"""How a Makefile compiles each C++ source it builds
(``hipport.buildfiles.languages``), read without running make.

A source is compiled by the recipe of the rule that has it as a
prerequisite (``main.o: src/main.cpp``), of a pattern rule for its suffix
(``%.o: %.cpp``, ``$(OBJS): %.o: %.cpp``, ``.cpp.o:``), or, when an
object ``main.o`` is needed and no rule makes it, by make's built-in rule
``$(CXX) $(CXXFLAGS) $(CPPFLAGS) -c`` (``CXX`` is ``g++`` unless the file
says otherwise).  The recipe's compiler decides: hipcc compiles C++ as HIP
(``hipcc -c main.cpp`` defines ``__HIP_PLATFORM_AMD__``), a C++ compiler
as C++, with the HIP platform only when the recipe defines it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from hipport.buildfiles.expand import MAKE_REFERENCE, expand, read_text
from hipport.buildfiles.languages import CXX_SUFFIXES, Compiled, lowest
from hipport.buildfiles.make.compile_flags import make_variables
from hipport.buildfiles.make.tokens import LineKind, MakeLine, lex_make
from hipport.buildfiles.words import split_words

_CXX_COMPILERS = ("g++", "c++", "clang++", "amdclang++", "icpx", "nvc++")
_PLATFORM_MACROS = ("-D__HIP_PLATFORM_AMD__", "-D__HIP_PLATFORM_HCC__")
# make's own defaults (make -p), and hipcc for a HIPCC the file leaves to the environment
_BUILT_IN = {"CXX": "g++", "CC": "cc", "HIPCC": "hipcc"}
_HIP_LANGUAGE = re.compile(r"(?:^|\s)-x\s*hip(?:\s|$)")
_MAX_EXPANSIONS = 20


@dataclass(frozen=True)
class _Rule:
    targets: tuple[str, ...]
    prerequisites: tuple[str, ...]
    patterns: tuple[str, str] | None  # ("%.o", "%.cpp") for a pattern rule
    compiled: Compiled | None  # how its recipe compiles (None: it runs no compiler)


def make_compiled(path: Path) -> dict[Path, Compiled]:
    """Each C++ source of the Makefile's folder ``path`` compiles, and how."""
    try:
        stat = path.stat()
    except OSError:
        return {}
    return _compiled(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _compiled(path: Path, mtime: int, size: int) -> dict[Path, Compiled]:
    text = read_text(path)
    if text is None:
        return {}
    lines = lex_make(text)
    known = make_variables(text, lines)
    rules = _rules(text, lines, known)
    folder = path.parent
    found: dict[Path, Compiled] = {}
    by_suffix: dict[str, Compiled] = {}
    made = {t for rule in rules for t in rule.targets}
    for rule in rules:
        if rule.compiled is None:
            continue
        if rule.patterns is not None:
            suffix = PurePosixPath(rule.patterns[1]).suffix
            if rule.patterns[1].startswith("%") and suffix in CXX_SUFFIXES:
                lowest(by_suffix, suffix, rule.compiled)
            continue
        for name in rule.prerequisites:
            if PurePosixPath(name).suffix in CXX_SUFFIXES:
                lowest(found, (folder / name).resolve(), rule.compiled)
    built_in = _compiler("$(CXX) $(CXXFLAGS) $(CPPFLAGS) -c", known)
    for rule in rules:
        for name in rule.prerequisites:
            stem = PurePosixPath(name)
            if stem.suffix != ".o" or name in made:
                continue
            for suffix in CXX_SUFFIXES:
                source = (folder / stem.with_suffix(suffix)).resolve()
                if source not in found and source.is_file():
                    lowest(found, source, by_suffix.get(suffix, built_in or Compiled.CXX))
    for source in _sources(folder):
        if source not in found and source.suffix in by_suffix:
            found[source] = by_suffix[source.suffix]
    return found


def _sources(folder: Path) -> list[Path]:
    try:
        return [p.resolve() for p in folder.iterdir() if p.suffix in CXX_SUFFIXES]
    except OSError:
        return []


def _rules(text: str, lines: list[MakeLine], known: dict[str, str]) -> list[_Rule]:
    rules: list[_Rule] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.kind is not LineKind.RULE:
            continue
        head = text[line.start:line.content_end]
        inline = ""
        if ";" in head:
            head, inline = head.split(";", 1)
        recipe = [inline] if inline.strip() else []
        while i < len(lines) and lines[i].kind in (LineKind.RECIPE, LineKind.COMMENT):
            if lines[i].kind is LineKind.RECIPE:
                recipe.append(text[lines[i].value_start:lines[i].end])
            i += 1
        rule = _rule(head, recipe, known)
        if rule is not None:
            rules.append(rule)
    return rules


def _rule(head: str, recipe: list[str], known: dict[str, str]) -> _Rule | None:
    parts = head.replace("::", ":").split(":")
    if len(parts) < 2:
        return None
    targets = _words(parts[0], known)
    compiled = next((c for c in (_compiler(r, known) for r in recipe) if c is not None), None)
    if len(parts) >= 3:  # static pattern rule: targets: %.o: %.cpp
        return _Rule(targets, (), _pattern(parts[1], parts[2], known), compiled)
    prerequisites = _words(parts[1].split("|")[0], known)
    if len(targets) == 1 and targets[0].startswith(".") and targets[0].count(".") == 2 \
            and not prerequisites:  # a suffix rule: .cpp.o
        source, _, object_suffix = targets[0][1:].partition(".")
        return _Rule(targets, (), (f"%.{object_suffix}", f"%.{source}"), compiled)
    if any("%" in t for t in targets):
        return _Rule(targets, (), _pattern(parts[0], parts[1], known), compiled)
    return _Rule(targets, prerequisites, None, compiled)


def _pattern(targets: str, prerequisites: str, known: dict[str, str]) -> tuple[str, str] | None:
    target = next((w for w in _words(targets, known) if "%" in w), None)
    source = next((w for w in _words(prerequisites, known) if "%" in w), None)
    return (target, source) if target and source else None


def _words(text: str, known: dict[str, str]) -> tuple[str, ...]:
    words: list[str] = []
    for word in split_words(text, 0, len(text)):
        expanded = expand(word.text, known, MAKE_REFERENCE)
        if expanded is not None:
            words += expanded.split()
    return tuple(words)


def _compiler(command: str, known: dict[str, str]) -> Compiled | None:
    """How a recipe line compiles C++, or None when it runs no compiler."""
    for word in split_words(command, 0, len(command)):
        raw = word.text.lstrip("@-+")
        reference = MAKE_REFERENCE.fullmatch(raw)
        value = _lenient(raw, known) or (_BUILT_IN.get(reference[1], "") if reference else "")
        name = PurePosixPath(value.split()[0]).name if value.split() else ""
        if name.startswith("hipcc"):
            return Compiled.HIP
        if name.endswith(_CXX_COMPILERS) or name.startswith(("g++", "clang++")):
            line = _lenient(command, known)
            if _HIP_LANGUAGE.search(line):
                return Compiled.HIP
            if any(m in line for m in _PLATFORM_MACROS):
                return Compiled.CXX_WITH_PLATFORM
            return Compiled.CXX
    return None


def _lenient(value: str, known: dict[str, str]) -> str:
    """``value`` with the references make would expand; an unknown one is
    empty, as make has it."""
    for _ in range(_MAX_EXPANSIONS):
        if not MAKE_REFERENCE.search(value):
            break
        value = MAKE_REFERENCE.sub(lambda m: known.get(m[1], ""), value)
    return value
