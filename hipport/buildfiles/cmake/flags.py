"""nvcc flags in CMake: the flag lists of compile and link options, flag
variables and generator expressions, rewritten by ``flags.rewrite_flags``;
CUDA library names in link lists."""
from __future__ import annotations

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Argument, Command
from hipport.buildfiles.flags import rewrite_flags
from hipport.buildfiles.libraries import BY_LINK_NAME
from hipport.buildfiles.words import Word, split_words


def flag_arguments(p: CMakePass, cmd: Command, args: list[Argument], nvcc: bool = False) -> None:
    """Run the nvcc flag rules over the flag lists found in ``args``."""
    plain: list[Word] = []
    # Compile options with -G (`$<$<CONFIG:Debug>:-G>`) are nvcc's: GCC's -G
    # (MIPS, RISC-V) takes a size, and no CMake project enabling CUDA targets those.
    bare_g = cmd.lname in _COMPILE_OPTIONS

    def flush() -> None:
        if plain:
            _rewrite(p, list(plain), nvcc, bare_g)
            plain.clear()

    i = 0
    while i < len(args):
        a = args[i]
        if a.kind is ArgKind.QUOTED:
            flush()
            _rewrite(p, list(split_words(p.text, a.value_start, a.value_end, " \t;", "({<")),
                     nvcc, bare_g)
        elif a.kind is ArgKind.UNQUOTED and a.text.startswith("$<"):
            flush()
            i = _genex(p, args, i, nvcc, bare_g)
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


def _genex(p: CMakePass, args: list[Argument], i: int, nvcc: bool, bare_g: bool) -> int:
    """A generator expression starting at ``args[i]``, possibly continued over
    the following arguments (``$<$<COMPILE_LANGUAGE:CUDA>:-a -b>``); the flags
    of its body are rewritten.  Returns the index of the argument after it."""
    text, start, limit = p.text, args[i].start, args[-1].end
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
        return i + 1  # unbalanced: leave it alone
    j = i
    while j + 1 < len(args) and args[j + 1].start < pos:
        j += 1
    if colon > 0:
        condition = text[start:colon]
        cuda = any(f"{key}CUDA" in condition for key in N.LANGUAGE_GENEXES)
        other = not cuda and any(key in condition for key in N.LANGUAGE_GENEXES)
        words = list(split_words(text, colon + 1, pos, " \t\r\n;", "({<"))
        _rewrite(p, words, nvcc or cuda, bare_g and not other)
    return j + 1


def _rewrite(p: CMakePass, words: list[Word], nvcc: bool, bare_g: bool = False) -> None:
    if not words:
        return
    loops = [v for s, e, v in p.arch_loops if s <= words[0].start < e]
    result = rewrite_flags(p.text, words, p.options.offload_arch, nvcc=nvcc, bare_g=bare_g,
                           arch_loop=loops[-1] if loops else None)
    p.findings += result.findings
    p.claimed += result.claimed
    for lib in result.libraries:
        p.use(lib, words[0].start)


_COMPILE_OPTIONS = frozenset({"target_compile_options", "add_compile_options"})


def _link_item(p: CMakePass, a: Argument) -> bool:
    name = a.text
    if name in BY_LINK_NAME:
        lib = BY_LINK_NAME[name]
        p.use(lib, a.start)
        p.edit("HP605", f"library {name} -> {lib.target}", a.start, a.end, lib.target)
        return True
    return False
