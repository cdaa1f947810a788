"""nvcc flags in CMake: the flag lists of compile and link options, flag
variables (CMake's and the project's own that those lists use) and
generator expressions, quoted or not, rewritten by
``flags.rewrite_flags``; CUDA library names in link lists."""
from __future__ import annotations

from dataclasses import replace

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Argument, Command
from hipport.buildfiles.flags import rewrite_flags
from hipport.buildfiles.words import Word, blanks_before, identifiers, split_words
from hipport.edits import Edit, Fix

# A span a flag list sits in, removed whole when every flag in it is:
# an emptied option argument ("") reaches the compiler as an empty argument.
_Whole = tuple[int, int] | None


def flag_arguments(p: CMakePass, cmd: Command, args: list[Argument], nvcc: bool = False) -> None:
    """Run the nvcc flag rules over the flag lists found in ``args``."""
    plain: list[Word] = []
    # Compile options with -G (`$<$<CONFIG:Debug>:-G>`) are nvcc's: GCC's -G
    # (MIPS, RISC-V) takes a size, and no CMake project enabling CUDA targets those.
    bare_g = cmd.lname in _COMPILE_OPTIONS
    options = cmd.lname in N.FLAG_COMMANDS  # arguments that are options themselves

    def flush() -> None:
        if plain:
            _rewrite(p, list(plain), nvcc, bare_g, (blanks_before(p.text, plain[0].start),
                                                    plain[-1].end))
            plain.clear()

    i = 0
    while i < len(args):
        a = args[i]
        whole = _argument_span(p.text, a) if options else None
        if a.kind is ArgKind.QUOTED and a.value.startswith("$<"):
            flush()
            _genex(p, a.value_start, a.value_end, nvcc, bare_g, whole, listed=options)
        elif a.kind is ArgKind.QUOTED:
            flush()
            _rewrite(p, list(split_words(p.text, a.value_start, a.value_end, " \t;", "({<")),
                     nvcc, bare_g, whole, listed=options)
        elif a.kind is ArgKind.UNQUOTED and a.text.startswith("$<"):
            flush()
            end = _genex(p, a.start, args[-1].end, nvcc, bare_g,
                         (whole[0], -1) if whole else None)
            i += 1
            while i < len(args) and args[i].start < end:  # a body over several arguments
                i += 1
            continue
        elif a.kind is ArgKind.UNQUOTED:
            lib_word = cmd.lname in N.LINK_COMMANDS and _link_item(p, a)
            if lib_word:
                flush()
            else:
                plain.extend(split_words(p.text, a.start, a.end, ";", "({<"))
        else:
            flush()
        i += 1
    flush()


def _argument_span(text: str, a: Argument) -> tuple[int, int]:
    """The argument with the blanks before it (what removing it takes)."""
    return blanks_before(text, a.start), a.end


def _genex(p: CMakePass, start: int, limit: int, nvcc: bool, bare_g: bool,
           whole: _Whole, listed: bool = False) -> int:
    """A generator expression starting at ``start`` (``$<$<COMPILE_LANGUAGE:
    CUDA>:-a -b>``, possibly over several arguments); the flags of its body
    are rewritten.  Returns the offset after it (``limit`` when unbalanced:
    left alone).  ``whole``: what goes when its body is emptied (an end of
    -1: the generator expression's own)."""
    text = p.text
    depth, colon, pos = 0, -1, start
    while pos < limit:
        if text.startswith("$<", pos):
            depth += 1
            pos += 2
            continue
        if text[pos] == ">":
            depth -= 1
            if depth == 0:
                break
        elif text[pos] == ":" and depth == 1 and colon < 0:
            colon = pos
        pos += 1
    else:
        return limit
    if colon > 0:
        condition = text[start:colon]
        cuda = any(f"{key}CUDA" in condition for key in N.LANGUAGE_GENEXES)
        other = not cuda and any(key in condition for key in N.LANGUAGE_GENEXES)
        words = list(split_words(text, colon + 1, pos, " \t\r\n;", "({<"))
        if whole is not None and whole[1] < 0:
            whole = (whole[0], pos + 1)
        _rewrite(p, words, nvcc or cuda, bare_g and not other, whole, listed)
    return pos + 1


def _rewrite(p: CMakePass, words: list[Word], nvcc: bool, bare_g: bool = False,
             whole: _Whole = None, listed: bool = False) -> None:
    """``listed``: the words are one quoted option argument, where CMake
    passes a space on as part of the option: flags that become several
    (``--offload-arch=a --offload-arch=b``) are a list there (``;``), unless
    CMake splits them itself (``SHELL:``)."""
    shell = any(w.text.startswith("SHELL:") for w in words)
    # `SHELL:-arch sm_80` (CMake's option grouping): the flags after the prefix.
    words = [Word(w.text[6:], w.start + 6, w.end) if w.text.startswith("SHELL:") else w
             for w in words]
    words = [w for w in words if w.text]
    if not words:
        return
    loops = [v for s, e, v in p.arch_loops if s <= words[0].start < e]
    result = rewrite_flags(p.text, words, p.options.offload_arch, nvcc=nvcc, bare_g=bare_g,
                           roc=p.options.roc,
                           arch_loop=loops[-1] if loops else None)
    findings = result.findings
    if listed and not shell:
        findings = [replace(f, fix=_as_list(f.fix)) if f.fix is not None else f
                    for f in findings]
    if whole is not None and len(result.removed) == len(words):
        # Every flag goes: so does the argument, under each of their findings.
        fix = Fix((Edit(whole[0], whole[1], b""),),
                  title="; ".join(f.message for f in findings))
        findings = [replace(f, fix=fix) if f.fix is not None else f for f in findings]
        p.claimed.append(whole)
    p.findings += findings
    p.claimed += result.claimed
    for lib in result.libraries:
        p.use(lib, words[0].start)


def _as_list(fix: Fix) -> Fix:
    return replace(fix, edits=tuple(Edit(e.start, e.end, e.text.replace(b" ", b";"))
                                    for e in fix.edits))


_COMPILE_OPTIONS = frozenset({"target_compile_options", "add_compile_options"})
_OPTION_COMMANDS = _COMPILE_OPTIONS | frozenset({"target_link_options", "add_link_options"})


def flag_variables(commands: list[Command]) -> dict[str, bool]:
    """The project's own variables that compile or link options (or CUDA's
    flag variables) use, ``set(CUDA_FLAGS -arch=sm_80 ...)`` with
    ``target_compile_options(t PRIVATE ${CUDA_FLAGS})``: their values are
    flags too.  Each maps to whether they are nvcc's (used for CUDA alone)."""
    found: dict[str, bool] = {}
    for cmd in commands:
        flag_set = cmd.lname in ("set", "string", "list") and any(
            w.value.startswith(N.FLAG_VARIABLE_PREFIXES) for w in cmd.words[:2])
        if cmd.lname not in _OPTION_COMMANDS and not flag_set:
            continue
        for a in cmd.words:
            nvcc = flag_set or any(f"{key}CUDA" in a.value for key in N.LANGUAGE_GENEXES)
            for ident in identifiers(a.text, 0, len(a.text)):
                name = ident.text
                if a.text[ident.start - 2:ident.start] != "${" or name.startswith(
                        ("CMAKE_", "CUDA_NVCC_FLAGS")):
                    continue
                found[name] = found.get(name, False) or nvcc
    return found


def _link_item(p: CMakePass, a: Argument) -> bool:
    name = a.text
    lib = p.libs.by_link_name.get(name)
    if lib is not None:
        p.use(lib, a.start)
        p.edit("HP605", f"library {name} -> {lib.target}", a.start, a.end, lib.target)
        return True
    return False
