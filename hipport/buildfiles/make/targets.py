"""What a Makefile builds, read without running make: the sources its rules,
variables and recipes name (``kernel.cu``, ``kernel.o`` for ``kernel.cu``,
``$(wildcard *.cu)``, ``$(SRC:.cu=.o)``, and a pattern rule's stems such as
``TARGETS = scan`` with ``%: %.cu``), through ``include``d files.

Conditionals are not evaluated (every branch counts) and ``$(shell ...)``
is not run.  A Makefile in which no source is found is one target that
hipport cannot read: ``hipport report`` takes its folder as a whole."""
from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field
from pathlib import Path

from hipport.buildfiles.expand import read_text
from hipport.buildfiles.make.tokens import LineKind, lex_make
from hipport.buildfiles.system import BuildTarget, BuildTargets

SOURCE_SUFFIXES = (".cu", ".hip", ".cpp", ".cc", ".cxx", ".c++", ".c", ".C")
_OBJECT_SUFFIXES = (".o", ".obj")
_INCLUDE_FLAGS = ("-isystem", "-iquote", "-I")
_MAX_DEPTH = 20
_FUNCTIONS = {"wildcard", "patsubst", "addprefix", "addsuffix", "notdir", "sort", "strip",
              "subst", "basename", "dir", "filter", "filter-out", "foreach", "shell", "call",
              "eval", "if", "or", "and", "firstword", "lastword", "word", "words", "info",
              "warning", "error", "origin", "value", "abspath", "realpath", "join", "findstring"}
_PATTERN_SOURCE = re.compile(r"%(\.[A-Za-z+]+)")


@dataclass
class _Makefile:
    folder: Path
    variables: dict[str, str] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)  # every word of values, rules and recipes
    pattern_suffixes: set[str] = field(default_factory=set)  # `%.o: %.cu` -> .cu
    read: list[Path] = field(default_factory=list)

    def load(self, path: Path, depth: int = 0) -> None:
        text = read_text(path)
        if text is None or depth > _MAX_DEPTH or path in self.read:
            return
        self.read.append(path)
        for line in lex_make(text):
            body = text[line.body_start:line.content_end].replace("\\\n", " ")
            if line.kind is LineKind.ASSIGNMENT and line.name is not None:
                name = line.name.text
                if line.operator == "+=" and name in self.variables:
                    self.variables[name] += " " + body
                elif line.operator != "?=" or name not in self.variables:
                    self.variables[name] = body
                self.words.append(body)
            elif line.kind in (LineKind.RULE, LineKind.RECIPE):
                self.words.append(body)
                if line.kind is LineKind.RULE:
                    self.pattern_suffixes |= set(_PATTERN_SOURCE.findall(body))
            elif line.kind is LineKind.DIRECTIVE:
                head, _, rest = body.strip().partition(" ")
                if head in ("include", "-include", "sinclude"):
                    for name in self.expand(rest).split():
                        self.load(_within(self.folder, name), depth + 1)

    def expand(self, text: str, depth: int = 0) -> str:
        """``text`` with variable references and the common functions
        expanded as make would; what only make can compute is left out."""
        out: list[str] = []
        i = 0
        while i < len(text):
            c = text[i]
            if c != "$" or i + 1 >= len(text):
                out.append(c)
                i += 1
                continue
            opener = text[i + 1]
            if opener == "$":
                out.append("$")
                i += 2
                continue
            if opener not in "({":
                i += 2  # $@, $<, $^, $*: automatic variables
                continue
            end = _closing(text, i + 1)
            inner = text[i + 2:end]
            out.append(self.reference(inner, depth + 1) if depth < _MAX_DEPTH else "")
            i = end + 1
        return "".join(out)

    def reference(self, inner: str, depth: int) -> str:
        head, _, rest = inner.partition(" ")
        if head in _FUNCTIONS and rest:
            return self.function(head, rest, depth)
        name, colon, substitution = inner.partition(":")
        value = self.expand(self.variables.get(self.expand(name, depth), ""), depth)
        if colon and "=" in substitution:  # $(SRC:.cu=.o)
            old, _, new = substitution.partition("=")
            old, new = (old, new) if "%" in old else ("%" + old, "%" + new)
            return " ".join(_patsubst(old, new, w) for w in value.split())
        return value

    def function(self, name: str, rest: str, depth: int) -> str:
        args = [self.expand(a, depth) for a in _split_arguments(rest)]
        words = args[-1].split() if args else []
        if name == "wildcard":
            return " ".join(str(Path(p).relative_to(self.folder)) if Path(p).is_relative_to(
                self.folder) else p for w in " ".join(args).split()
                for p in sorted(glob.glob(str(_within(self.folder, w)))))
        if name == "patsubst" and len(args) == 3:
            return " ".join(_patsubst(args[0].strip(), args[1].strip(), w) for w in words)
        if name == "addprefix" and len(args) == 2:
            return " ".join(args[0].strip() + w for w in words)
        if name == "addsuffix" and len(args) == 2:
            return " ".join(w + args[0].strip() for w in words)
        if name == "notdir":
            return " ".join(w.rsplit("/", 1)[-1] for w in words)
        if name in ("sort", "strip"):
            return " ".join(sorted(set(words)) if name == "sort" else words)
        if name == "subst" and len(args) == 3:
            return args[2].replace(args[0], args[1])
        if name == "basename":
            return " ".join(str(Path(w).with_suffix("")) for w in words)
        return ""  # shell, call, eval, ...: only make knows

    def sources(self) -> list[Path]:
        found: list[Path] = []
        for text in self.words:
            for word in self.expand(text).split():
                found += self.named(word.strip("'\""))
        return list(dict.fromkeys(found))

    def include_dirs(self) -> list[Path]:
        found: list[Path] = []
        for text in self.words:
            words = [w.strip("'\"") for w in self.expand(text).split()]
            for k, word in enumerate(words):
                flag = next((f for f in _INCLUDE_FLAGS if word.startswith(f)), None)
                value = word[len(flag):] if flag is not None else ""
                if flag is not None and not value and k + 1 < len(words):
                    value = words[k + 1]
                if value and "$" not in value:
                    found.append(_within(self.folder, value).resolve())
        return list(dict.fromkeys(found))

    def named(self, word: str) -> list[Path]:
        if not word or word.startswith("-") or any(c in word for c in "*?[$%"):
            return []
        path = _within(self.folder, word)
        if path.suffix in SOURCE_SUFFIXES and _is_file(path):
            return [path]
        stems = [path.with_suffix("")] if path.suffix in _OBJECT_SUFFIXES else []
        if self.pattern_suffixes and not path.suffix:
            stems.append(path)
        suffixes = SOURCE_SUFFIXES if path.suffix in _OBJECT_SUFFIXES else \
            tuple(self.pattern_suffixes)
        # `/`, `.`, `..` name no file (and have no name to add a suffix to)
        return [s.with_name(s.name + x) for s in stems if s.name not in ("", "..")
                for x in suffixes if _is_file(s.with_name(s.name + x))]


def _is_file(path: Path) -> bool:
    """A file, where a word of a Makefile names one (a name too long for the
    file system, or one with a NUL byte, names none)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _within(folder: Path, name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else folder / path


def _closing(text: str, at: int) -> int:
    """The index of the bracket closing the one at ``text[at]``."""
    pairs = {"(": ")", "{": "}"}
    stack = [pairs[text[at]]]
    i = at + 1
    while i < len(text):
        c = text[i]
        if c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
            if not stack:
                return i
        i += 1
    return len(text)


def _split_arguments(text: str) -> list[str]:
    """A function's arguments: commas outside nested references."""
    args, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(text[start:i])
            start = i + 1
    return args + [text[start:]]


def _patsubst(pattern: str, replacement: str, word: str) -> str:
    if "%" not in pattern:
        return replacement if word == pattern else word
    before, _, after = pattern.partition("%")
    if word.startswith(before) and word.endswith(after) and len(word) >= len(before + after):
        stem = word[len(before):len(word) - len(after)]
        return replacement.replace("%", stem, 1)
    return word


def make_targets(path: Path) -> BuildTargets | None:
    """The sources the Makefile ``path`` builds, as one target; None when it
    cannot be read."""
    if read_text(path) is None:
        return None
    makefile = _Makefile(path.parent)
    makefile.load(path)
    sources = makefile.sources()
    target = BuildTarget(path.parent.name or path.name, path.resolve(),
                         tuple(p.resolve() for p in sources), tuple(makefile.include_dirs()),
                         complete=bool(sources))
    return BuildTargets((target,), tuple(p.resolve() for p in makefile.read))
