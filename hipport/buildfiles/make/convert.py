"""Makefile rules: nvcc -> hipcc, nvcc flags, CUDA libraries and paths.

Flags are rewritten in variable values and recipe lines; variable renames
(NVCC -> HIPCC, CUDA_PATH -> ROCM_PATH) apply wherever the variable is
assigned or referenced.  Comments and define blocks are left alone."""
from __future__ import annotations

import re

from hipport.buildfiles.flags import rewrite_flags
from hipport.buildfiles.make.rdc import rdc_links
from hipport.buildfiles.make.rocm_path import rocm_root
from hipport.buildfiles.make.tokens import LineKind, MakeLine
from hipport.buildfiles.words import Word, split_words
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.settings import Settings

VARIABLE_RENAMES = {"NVCC": "HIPCC", "NVCCFLAGS": "HIPCCFLAGS", "NVCC_FLAGS": "HIPCC_FLAGS",
                    "CUDA_PATH": "ROCM_PATH", "CUDA_HOME": "ROCM_PATH",
                    "CUDA_ROOT": "ROCM_PATH", "CUDA_INSTALL_PATH": "ROCM_PATH"}
_TOOLKIT_VARIABLES = frozenset(k for k, v in VARIABLE_RENAMES.items() if v == "ROCM_PATH")
CUDA_PREFIX = "/usr/local/cuda"
ROCM_PREFIX = "/opt/rocm"
_LITERAL_NVCC = re.compile(r"/usr/local/cuda(?:-[0-9][0-9.]*)?/bin/nvcc")
_NVCC_HINTS = ("NVCC", "CUDA", "GENCODE", "GPU")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_NAME_DIRECTIVES = frozenset({"ifdef", "ifndef", "export", "unexport", "undefine", "override"})


def make_findings(text: str, lines: list[MakeLine], options: Settings,
                  keep_names: bool = False) -> list[Finding]:
    """``keep_names``: a single-source Makefile keeps its variable names, the
    HIP side only gives them other values (CUDA_PATH holds the ROCm root)."""
    renames = {} if keep_names else VARIABLE_RENAMES
    findings: list[Finding] = []
    values: dict[str, list[str]] = {}  # every value given to each variable
    nvcc_recipes: list[tuple[Word, list[Word]]] = []
    rule: MakeLine | None = None  # the rule the recipe lines below belong to
    for line in lines:
        if line.kind is LineKind.RULE:
            rule = line
        if line.kind in (LineKind.BLANK, LineKind.COMMENT, LineKind.DEFINE_BODY):
            continue
        claimed: list[tuple[int, int]] = []
        root = rocm_root(text, line, keep_names) if line.kind is LineKind.ASSIGNMENT else None
        if root is not None:
            findings.append(root)
            continue
        if line.kind is LineKind.ASSIGNMENT and line.name is not None:
            _rename(findings, renames, line.name, "assignment", text)
            values.setdefault(line.name.text, []).append(text[line.value_start:line.content_end])
            nvcc = any(h in line.name.text.upper() for h in _NVCC_HINTS)
            words = list(split_words(text, line.value_start, line.content_end))
            claimed = _flags(text, words, options, nvcc, findings)
            if not nvcc:
                findings += _host_platform(text, words)
        elif line.kind is LineKind.RECIPE:
            words = list(split_words(text, line.value_start, _recipe_end(text, line)))
            compiler = next((w for w in words if _is_nvcc_word(w.text)), None)
            nvcc = compiler is not None
            if compiler is not None:
                nvcc_recipes.append((compiler, words))
                moved = _objects_first(text, words[words.index(compiler) + 1:], "command",
                                       _first_prerequisite(text, rule))
                if moved is None and rule is not None:
                    moved = _rule_objects_first(text, rule, words)
                if moved is not None:
                    findings.append(moved)
            # A code-object build without -o writes what the rule makes.
            claimed = _flags(text, words, options, nvcc, findings,
                             "$@" if nvcc and rule is not None else None)
            if not nvcc:
                findings += _host_platform(text, words)
        elif line.kind is LineKind.OTHER:
            loop = _arch_loop(text, line, options)
            if loop is not None:
                findings.append(loop)
                continue
        elif line.kind is LineKind.DIRECTIVE:
            words = list(split_words(text, line.start, line.content_end))
            if len(words) > 1 and words[0].text in _NAME_DIRECTIVES:
                _rename(findings, renames, words[1], "directive")
        end = _recipe_end(text, line) if line.kind is LineKind.RECIPE else line.content_end
        for word in split_words(text, line.body_start, end):
            if not any(s <= word.start and word.end <= e for s, e in claimed):
                findings += _inside_word(text, word, renames)
    return findings + rdc_links(nvcc_recipes, values)


_TOOLKIT_INCLUDE = re.compile(r"-I\s*(?:\$[({](?:" + "|".join(sorted(_TOOLKIT_VARIABLES)) +
                              r")[)}]|" + re.escape(CUDA_PREFIX) + r"(?:-[\d.]+)?)/include/?$")
PLATFORM_FLAG = "-D__HIP_PLATFORM_AMD__"


def _host_platform(text: str, words: list[Word]) -> list[Finding]:
    """A C/C++ compile line (not nvcc's) with the toolkit's include path: it
    gets HIP's, and beside it the HIP platform macro, without which
    hip_runtime.h stops with #error (HP615)."""
    if any(w.text.startswith(PLATFORM_FLAG) for w in words):
        return []
    for w in words:
        if _TOOLKIT_INCLUDE.match(w.text):
            return [_edit("HP615", f"{w.text}: C/C++ compiled without hipcc gets "
                          f"{PLATFORM_FLAG} with HIP's include path", w.end, w.end,
                          " " + PLATFORM_FLAG)]
    return []


# `$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode arch=compute_$(sm),code=sm_$(sm)))`:
# NVIDIA's Makefiles build their architecture flags one GPU at a time.
_ARCH_LOOP = re.compile(
    r"\$[({]foreach\s+(?P<var>\w+)\s*,[^,]*,\s*\$[({]eval\s+(?P<name>\w+)\s*(?P<op>[+:?]?=)\s*"
    r"(?:-gencode|--generate-code|-arch|--gpu-architecture)[ =]\s*"
    r"(?:[^()${}]|\$[({]\w+[)}])*\$[({](?P=var)[)}](?:[^()${}]|\$[({]\w+[)}])*"
    r"\)\s*\)\s*")


def _arch_loop(text: str, line: MakeLine, options: Settings) -> Finding | None:
    """Such a loop becomes the one assignment of the AMD targets."""
    found = _ARCH_LOOP.fullmatch(text, line.start, line.content_end)
    if found is None:
        return None
    flags = " ".join(f"--offload-arch={arch}" for arch in options.offload_arch)
    new = f"{found['name']} {found['op']} {flags}"
    return _edit("HP603", f"nvcc architecture loop -> {flags}", line.start, line.content_end,
                 new)


def _recipe_end(text: str, line: MakeLine) -> int:
    # The shell sees recipe text: a '#' opening a word starts a shell comment.
    for w in split_words(text, line.value_start, line.end):
        if w.text.startswith("#"):
            return w.start
    return line.end


def _flags(text: str, words: list[Word], options: Settings, nvcc: bool,
           findings: list[Finding], output: str | None = None) -> list[tuple[int, int]]:
    result = rewrite_flags(text, words, options.offload_arch, nvcc=nvcc, output=output,
                           roc=options.roc)
    findings += result.findings
    return result.claimed


def _rename(findings: list[Finding], renames: dict[str, str], name: Word, where: str,
            text: str = "") -> None:
    new = renames.get(name.text)
    if new is None:
        return
    end, replacement = name.end, new
    # Keep the column of an aligned `=`: a longer name eats padding spaces
    # (leaving at least one), a shorter one gets padding.
    spaces = len(text[name.end:]) - len(text[name.end:].lstrip(" "))
    grow = len(new) - len(name.text)
    if spaces >= 2 and 0 < grow < spaces:
        end += grow
    elif spaces >= 1 and grow < 0:
        replacement += " " * -grow
    findings.append(_edit("HP612" if new == "ROCM_PATH" else "HP602",
                          f"variable {name.text} -> {new} ({where})", name.start, end,
                          replacement))


def _objects_first(text: str, words: list[Word], where: str,
                   first_prerequisite: str = "") -> Finding | None:
    """HP616: the ``.o`` words after the first ``.cu`` word (or ``$<`` naming
    a ``.cu`` prerequisite), moved before it (hipcc compiles every input
    after a ``.cu`` file as HIP).  Only a run of plain file names moves: a
    flag or a variable between them keeps its place (and its own edits)."""
    def source(word: str) -> bool:
        return word.endswith(".cu") or (word == "$<" and first_prerequisite.endswith(".cu"))

    first = next((k for k, w in enumerate(words) if source(w.text)), None)
    if first is None:
        return None
    late = [k for k in range(first + 1, len(words)) if words[k].text.endswith(".o")]
    if not late:
        return None
    segment = words[first:late[-1] + 1]
    if any(w.text.startswith("-") or ("$" in w.text and w.text != "$<") for w in segment):
        return None
    objects = [words[k] for k in late]
    others = [w for w in segment if w not in objects]
    new = " ".join(w.text for w in objects + others)
    names = ", ".join(w.text for w in objects)
    return _edit("HP616", f"{names} moved before {words[first].text} in the {where}: hipcc "
                 "compiles every input after a .cu file as HIP source", segment[0].start,
                 segment[-1].end, new)


def _prerequisites(text: str, rule: MakeLine) -> list[Word]:
    """The normal prerequisites of a rule line (none for a target-specific
    variable)."""
    body = text[rule.start:rule.content_end]
    colon = body.find(":")
    if colon < 0 or body[colon:colon + 2] in (":=", "::") or "=" in body[colon:]:
        return []
    end = rule.content_end
    for stop in ("|", ";"):  # order-only prerequisites; a recipe on the rule's line
        at = body.find(stop, colon)
        if at >= 0:
            end = min(end, rule.start + at)
    return list(split_words(text, rule.start + colon + 1, end))


def _first_prerequisite(text: str, rule: MakeLine | None) -> str:
    words = _prerequisites(text, rule) if rule is not None else []
    return words[0].text if words else ""


def _rule_objects_first(text: str, rule: MakeLine, recipe: list[Word]) -> Finding | None:
    """A recipe that takes its inputs from ``$^``/``$+``: the rule's object
    prerequisites before its first ``.cu`` one (not with ``$<``, which would
    name another file)."""
    used = " ".join(w.text for w in recipe)
    if not any(v in used for v in ("$^", "$+")) or "$<" in used:
        return None
    return _objects_first(text, _prerequisites(text, rule), "prerequisites")


def _edit(code: str, message: str, start: int, end: int, new: str) -> Finding:
    fix = Fix((Edit(start, end, new.encode("latin-1")),), title=message)
    return Finding(code, message, start, end, fix)


def _is_nvcc_word(word: str) -> bool:
    return (word == "nvcc" or word.endswith("/nvcc") or word in ("$(NVCC)", "${NVCC}"))


def _inside_word(text: str, word: Word, renames: dict[str, str]) -> list[Finding]:
    """Renamed variable references, CUDA paths and the nvcc program inside a word."""
    if _LITERAL_NVCC.fullmatch(text, word.start, word.end):
        # /opt/rocm/bin/hipcc would name a folder distributions do not use
        # (Debian's hipcc is /usr/bin/hipcc): the one on PATH is the ROCm build's
        return [_edit("HP609", f"{word.text} -> hipcc (the one on PATH: ROCm puts it in "
                      "/opt/rocm/bin, distributions in /usr/bin)", word.start, word.end,
                      "hipcc")]
    out: list[Finding] = []
    roots: list[int] = []  # offsets just after a toolkit root ($(CUDA_PATH), /usr/local/cuda)
    i = word.start
    while i < word.end:
        if text.startswith(("$(", "${"), i):
            j = i + 2
            while j < word.end and text[j] in _NAME_CHARS:
                j += 1
            name = text[i + 2:j]
            if j < word.end and text[j] in "):}" and name in VARIABLE_RENAMES:
                new = renames.get(name)
                if new is not None:
                    out.append(_edit("HP612" if new == "ROCM_PATH" else "HP602",
                                     f"$({name}) -> $({new})", i + 2, j, new))
                if name in _TOOLKIT_VARIABLES and text[j] in ")}":
                    roots.append(j + 1)
            i = j
            continue
        if text.startswith(CUDA_PREFIX, i) and (i == word.start or text[i - 1] in "=:,'\""
                                                    or text[i - 2:i] in ("-L", "-I")):
            j = i + len(CUDA_PREFIX)
            if j < word.end and text[j] == "-":  # /usr/local/cuda-12.2
                k = j + 1
                while k < word.end and (text[k].isdigit() or text[k] == "."):
                    k += 1
                j = k if k > j + 1 else j
            if j == word.end or text[j] == "/":
                out.append(_edit("HP612", f"{text[i:j]} -> {ROCM_PREFIX}", i, j, ROCM_PREFIX))
                roots.append(j)
                i = j
                continue
        i += 1
    for at in roots:
        if text.startswith("/lib64", at) and (at + 6 == word.end or text[at + 6] in "/ "):
            out.append(_edit("HP612", "toolkit lib64 -> lib (ROCm's library directory)",
                             at + 1, at + 6, "lib"))
    if _is_nvcc_word(word.text) and word.text.endswith("nvcc"):
        out.append(_edit("HP609", f"{word.text} -> hipcc", word.end - 4, word.end, "hipcc"))
    return out
