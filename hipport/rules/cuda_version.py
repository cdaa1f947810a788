"""CUDA version tests in conditional directives (`#if CUDART_VERSION >= 11020`,
`#ifndef CUDA_VERSION`, `__CUDACC_VER_MAJOR__ < 11`).  hipcc defines none of
these macros, so after conversion every such test silently picks the branch
for "no CUDA" or the oldest CUDA.  Each is resolved for the CUDA version the
code is assumed to target (``--assume-cuda-version``, default 12.0): the
sub-expression becomes its value, the original test stays in a comment."""
from __future__ import annotations

import functools
import re
from typing import Iterator, NamedTuple

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.conditions import Node, blank, conditional_directives, evaluate, parse, tokenize
from hipport.rules import Context, RuleRole, file_rule

# Macros whose value follows from the CUDA release (X.Y): CUDART_VERSION and
# CUDA_VERSION are X*1000 + Y*10.  __CUDACC_VER_BUILD__ is defined but its
# value is not known: `defined(...)` resolves, a comparison does not.
VERSION_MACROS = ("CUDART_VERSION", "CUDA_VERSION", "__CUDACC_VER_MAJOR__",
                  "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__")
_NEEDLES = tuple(m.encode() for m in VERSION_MACROS)
VERSION_TEST = "HP309"
# What the rewrite does to a version test (the compat strategy, which leaves
# the line alone, says otherwise: hipport.compat.sources).
REPLACED = ("; the test was replaced by its value (--assume-cuda-version), the original kept "
            "in a comment")


def macro_values(version: tuple[int, int]) -> dict[str, int]:
    major, minor = version
    return {"CUDART_VERSION": major * 1000 + minor * 10, "CUDA_VERSION": major * 1000 + minor * 10,
            "__CUDACC_VER_MAJOR__": major, "__CUDACC_VER_MINOR__": minor}


class Resolution(NamedTuple):
    start: int  # the directive's condition
    end: int
    edits: tuple[Edit, ...]  # empty: a version test that could not be resolved
    message: str
    macros: tuple[str, ...] = ()  # the version macros it tests


def resolve(ctx: Context) -> tuple[Resolution, ...]:
    data = ctx.data
    if not any(n in data for n in _NEEDLES):
        return ()
    return _resolve(data, ctx.settings.assume_cuda_version)


@functools.lru_cache(maxsize=8)
def _resolve(data: bytes, version: tuple[int, int]) -> tuple[Resolution, ...]:
    code = blank(data)
    own = {m for m in VERSION_MACROS if _defines(code, m)}
    values = macro_values(version)
    assumed = f"CUDA {version[0]}.{version[1]} assumed"
    out: list[Resolution] = []
    for d in conditional_directives(code):
        tokens = tokenize(code, d.cond_start, d.end)
        names = {t.text for t in tokens or () if t.kind == "ident"}
        used = names & set(VERSION_MACROS)
        if not used or used & own:
            continue  # no version test, or the project's own macro
        # Without comments or continuations: what the preprocessor sees.
        original = " ".join(code[d.start:d.end].replace(b"\\\n", b" ").decode(
            "utf-8", "replace").split())
        comment = f" // {assumed}: #{original}".encode()
        if d.keyword in ("ifdef", "ifndef"):
            value = int(d.keyword == "ifdef")  # all of them are defined by CUDA
            out.append(Resolution(d.cond_start, d.end,
                                  (Edit(d.start, d.end, f"if {value}".encode() + comment),),
                                  f"`#{original}` is {value} with {assumed}", tuple(sorted(used))))
            continue
        tree = parse(tokens) if tokens is not None else None
        spans = _replacements(tree, values, set(VERSION_MACROS)) if tree is not None else None
        if not spans:
            out.append(Resolution(d.cond_start, d.end, (), f"`#{original}`: hipport cannot "
                                  "resolve this CUDA version test; hipcc defines none of "
                                  f"{', '.join(sorted(used))} (rewrite it by hand)"))
            continue
        edits: tuple[Edit, ...] = tuple(Edit(s, e, str(v).encode()) for s, e, v in spans)
        if spans[-1][1] == d.end:  # the comment joins a replacement it would touch
            s_last, e_last, v_last = spans[-1]
            edits = edits[:-1] + (Edit(s_last, e_last, str(v_last).encode() + comment),)
        else:
            edits += (Edit(d.end, d.end, comment),)
        parts = ", ".join(f"`{data[s:e].decode('utf-8', 'replace')}` is {v}"
                          for s, e, v in spans)
        out.append(Resolution(d.cond_start, d.end, edits, f"{parts} with {assumed}",
                              tuple(sorted(used))))
    return tuple(out)


def _defines(code: bytes, macro: str) -> bool:
    return re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + macro.encode() + rb"\b", code,
                     re.M) is not None


def _replacements(node: Node, values: dict[str, int],
                  macros: set[str]) -> list[tuple[int, int, int]] | None:
    """The largest sub-expressions made of version macros and numbers only,
    with their values; None when a version macro is left that cannot be."""
    if _mentions(node, macros):
        if _only_versions(node, macros):
            try:
                return [(node.start, node.end, evaluate(node, values))]
            except (KeyError, ValueError, ZeroDivisionError):
                pass
        if not node.children:
            return None  # e.g. __CUDACC_VER_BUILD__ compared
        found: list[tuple[int, int, int]] = []
        for child in node.children:
            sub = _replacements(child, values, macros)
            if sub is None:
                return None
            found += sub
        return found
    return []


def _mentions(node: Node, macros: set[str]) -> bool:
    if node.kind in ("ident", "defined"):
        return node.text in macros
    return any(_mentions(c, macros) for c in node.children)


def _only_versions(node: Node, macros: set[str]) -> bool:
    if node.kind == "num":
        return True
    if node.kind in ("ident", "defined"):
        return node.text in macros
    if node.kind == "call":
        return False
    return all(_only_versions(c, macros) for c in node.children)


@file_rule("cuda-version", codes=(VERSION_TEST, "HP901"), role=RuleRole.REWRITE)
def resolve_version_tests(ctx: Context) -> Iterator[Finding]:
    for r in resolve(ctx):
        if not r.edits:
            yield Finding("HP901", r.message, r.start, r.end)
            continue
        fix = Fix(r.edits, title="Resolve the CUDA version test")
        yield Finding(VERSION_TEST, r.message + REPLACED, r.start, r.end, fix=fix)
