"""HP316: kernel source an NVRTC program compiles at run time.

`nvrtcCreateProgram(&prog, src, name, ...)` takes the kernel as text, which
hipport does not rewrite as code: hipRTC compiles it with its own built-in
header, which declares what HIP keeps of CUDA's device names but not the names
HIP spells otherwise.  Where ``src`` is a string literal (or a variable this
file initialises with one), the CUDA names in it that the catalogue renames
are listed, with an unsafe fix renaming them inside the literal; a source
from anywhere else (a file read at run time) is reported at the call, naming
the program's file name where it is a literal."""
from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule

_CREATE = frozenset({"nvrtcCreateProgram", "hiprtcCreateProgram"})
_LITERALS = frozenset({"string_literal", "raw_string_literal", "concatenated_string"})
_WORD = re.compile(rb"[A-Za-z_]\w*")
_ESCAPE = re.compile(rb"\\.")
_INCLUDE = re.compile(rb"#\s*include\s*[<\"]([^>\"\\]+)[>\"]")
_NAME = re.compile(rb"[A-Za-z_]\w*")


def _literal_at(ctx: Context, start: int, end: int) -> Node | None:
    tree = ctx.analysis.tree
    if tree is None or not hasattr(tree, "root_node"):
        return None
    node: Node | None = tree.root_node.descendant_for_byte_range(start, end)
    while node is not None and node.type not in _LITERALS:
        if node.end_byte - node.start_byte > end - start + 2:
            return None
        node = node.parent
    return node


def _initialised_with(ctx: Context, name: bytes) -> Node | None:
    """The literal ``name`` is initialised with in this file
    (`const char* kSource = R"(...)"`, `static const char src[] = "..."`)."""
    found = re.search(rb"\b" + re.escape(name) + rb"\s*(?:\[\s*\])?\s*=\s*(?=u8|R|L|\")",
                      ctx.data)
    return None if found is None else _literal_at(ctx, found.end(), found.end() + 1)


def _pieces(node: Node) -> list[tuple[int, int]]:
    """The byte spans of the literal's text (between its quotes)."""
    if node.type == "concatenated_string":
        return [span for child in node.children if child.type in _LITERALS
                for span in _pieces(child)]
    raw = node.text or b""
    if node.type == "raw_string_literal":
        opening = raw.find(b"(")
        return [(node.start_byte + opening + 1, node.end_byte - (len(raw) - raw.rfind(b")")))]
    first = raw.find(b'"')
    return [(node.start_byte + first + 1, node.end_byte - 1)]


def _replacements(ctx: Context, node: Node) -> tuple[list[str], list[Edit]]:
    said: list[str] = []
    edits: list[Edit] = []
    seen: set[str] = set()
    for start, end in _pieces(node):
        body = _ESCAPE.sub(lambda m: b"  ", ctx.data[start:end])  # `\n` is not a name's `n`
        for include in _INCLUDE.finditer(body):
            entry = ctx.table.lookup(include.group(1).decode("utf-8", "replace"))
            if entry is not None and entry.kind == "header" and entry.hip and \
                    entry.hip != entry.cuda and entry.cuda not in seen:
                seen.add(entry.cuda)
                said.append(f"<{entry.cuda}> -> <{entry.hip}>")
                edits.append(Edit(start + include.start(1), start + include.end(1),
                                  entry.hip.encode()))
        for word in _WORD.finditer(body):
            entry = ctx.table.lookup(word.group().decode())
            if entry is None or entry.kind == "header":
                continue
            said_it = entry.cuda in seen
            seen.add(entry.cuda)
            if not entry.status.converts or entry.hip is None:
                if not said_it:
                    said.append(f"`{entry.cuda}` (no HIP equivalent)")
                continue
            if entry.hip == entry.cuda:
                continue
            if entry.rule is not None:
                if not said_it:
                    said.append(f"`{entry.cuda}` -> `{entry.hip}` (its arguments change too: "
                                "convert by hand)")
                continue
            if not said_it:
                said.append(f"`{entry.cuda}` -> `{entry.hip}`")
            edits.append(Edit(start + word.start(), start + word.end(), entry.hip.encode()))
    return said, edits


def _shown(names: list[str], limit: int = 8) -> str:
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _from_elsewhere(ctx: Context, start: int, end: int, name_arg: bytes) -> Finding:
    source = " ".join(ctx.data[start:end].decode("utf-8", "replace").split())
    named = name_arg.strip()
    where = f" (the program calls it {named.decode('utf-8', 'replace')})" \
        if named.startswith(b'"') else ""
    return Finding("HP316", f"the kernel source `{source}` is compiled at run time by hipRTC "
                   f"and hipport never sees it{where}: if it is a file the program reads, "
                   "convert it with hipport as well (hipRTC does not know the CUDA names HIP "
                   "spells otherwise)", start, end)


def _check_call(ctx: Context, args: tuple[tuple[int, int], ...]) -> Iterator[Finding]:
    start, end = args[1]
    argument = ctx.data[start:end].strip()
    node = _literal_at(ctx, start, end)
    if node is None and _NAME.fullmatch(argument):
        node = _initialised_with(ctx, argument)
    if node is None:
        name_arg = ctx.data[args[2][0]:args[2][1]] if len(args) > 2 else b""
        yield _from_elsewhere(ctx, start, end, name_arg)
        return
    said, edits = _replacements(ctx, node)
    if not said:
        return
    fix = Fix(tuple(edits), Applicability.UNSAFE, "Rename the CUDA names in the kernel source") \
        if edits else None
    yield Finding("HP316", "kernel source compiled at run time by hipRTC, which does not know "
                  f"these CUDA names: {_shown(said)}", node.start_byte, node.end_byte, fix=fix)


@file_rule("nvrtc-sources", codes=("HP316",))
def nvrtc_sources(ctx: Context) -> Iterator[Finding]:
    if b"rtcCreateProgram" not in ctx.data:
        return
    literals: set[int] = set()
    for ref in ctx.analysis.references:
        if ref.name not in _CREATE or ref.args is None or len(ref.args) < 2:
            continue
        for finding in _check_call(ctx, ref.args):
            if finding.start not in literals:  # one literal compiled twice: said once
                literals.add(finding.start)
                yield finding

