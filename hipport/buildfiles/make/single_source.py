"""The single-source Makefile (`--strategy compat`): each line the rewrite
changes goes behind ``ifeq ($(HIP),1)`` ... ``else``, the original in the
``else`` branch (``hipport.buildfiles.single_source``)."""
from __future__ import annotations

from hipport.buildfiles.make.tokens import LineKind, MakeLine
from hipport.buildfiles.single_source import (
    MARKER,
    Unit,
    apply,
    emit,
    group,
    platform_define,
    respelled,
    runs,
)
from hipport.edits import Edit, Fix
from hipport.findings import Finding

MAKE_SWITCH = "ifeq ($(HIP),1)"
MAKE_SWITCH_OFF = "ifneq ($(HIP),1)"
MAKE_DEFINE = "export HIPCC_COMPILE_FLAGS_APPEND += -D"


def make_header(macro: str = "") -> str:
    return (f"{MARKER}: `make HIP=1` builds for AMD GPUs with hipcc\n"
            f"{MAKE_SWITCH}\n"
            f"{MAKE_DEFINE}{platform_define(macro)}\n"
            "endif\n")


MAKE_HEADER = make_header()


def make_compat(text: str, lines: list[MakeLine], findings: list[Finding],
                macro: str = "") -> list[Finding]:
    protected = _make_protected(text, lines)
    units = [Unit(ln.start, ln.end, "wrap" if ln.kind in (
        LineKind.ASSIGNMENT, LineKind.RECIPE, LineKind.RULE, LineKind.OTHER) else "fixed")
        for ln in lines]
    kept, groups = group(text, units, findings, protected)
    header = _make_header_at(text)
    respelled = _make_define(text, header, platform_define(macro)) if header >= 0 else None
    kept += [respelled] if respelled is not None else []
    if not groups:
        return kept
    out = kept
    for run in runs(text, units, list(groups), lambda gap: gap == "\n"):
        first, last = units[run[0]], units[run[-1]]
        hip = [apply(text, units[i].start, units[i].end,
                      [e for _, es in groups[i] for e in es], lambda s: s) for i in run]
        hip = [h for h in hip if h.strip()]
        original = text[first.start:last.end]
        if hip:
            block = f"{MAKE_SWITCH}  {MARKER}\n" + "\n".join(hip) + f"\nelse\n{original}\nendif"
        else:
            block = f"{MAKE_SWITCH_OFF}  {MARKER}\n{original}\nendif"
        out += emit(groups, run, block, first.start, last.end)
    if header < 0:
        out.append(_make_header(text, lines, macro))
    return out


def _make_header_at(text: str) -> int:
    """Where the header an earlier run generated starts (-1: none)."""
    first = MAKE_HEADER.split("\n", 2)[:2]
    at = text.find("\n".join(first) + "\n")
    return at if at == 0 or (at > 0 and text[at - 1] == "\n") else -1


def _make_define(text: str, header: int, define: str) -> Finding | None:
    """The header's definition, re-spelled when --compat-macro has changed."""
    line = text.find("\n", text.find("\n", header) + 1) + 1
    end = text.find("\n", line)
    if not text.startswith(MAKE_DEFINE, line) or end < 0:
        return None
    return respelled(text[line + len(MAKE_DEFINE):end], define, line + len(MAKE_DEFINE), end)


def _directive(text: str, line: MakeLine) -> str:
    return text[line.start:line.content_end].strip()


def _make_protected(text: str, lines: list[MakeLine]) -> list[tuple[int, int]]:
    spans = []
    for i, line in enumerate(lines):
        if line.kind is not LineKind.DIRECTIVE or _directive(text, line) not in (
                MAKE_SWITCH, MAKE_SWITCH_OFF):
            continue
        depth, end = 0, line.end
        for later in lines[i:]:
            if later.kind is not LineKind.DIRECTIVE:
                continue
            head = _directive(text, later).split(None, 1)[0]
            depth += (head in ("ifeq", "ifneq", "ifdef", "ifndef")) - (head == "endif")
            if depth == 0:
                end = later.end
                break
        spans.append((line.start, end))
    return spans


def _make_header(text: str, lines: list[MakeLine], macro: str) -> Finding:
    at = next((ln.start for ln in lines if ln.kind not in (LineKind.BLANK, LineKind.COMMENT)),
              len(text))
    message = "single-source build: `make HIP=1` builds with hipcc, plain `make` as before"
    header = make_header(macro)
    new = header if at < len(text) or text.endswith("\n") or not text else "\n" + header
    fix = Fix((Edit(at, at, new.encode("latin-1")),), title=message)
    return Finding("HP614", message, at, at, fix)
