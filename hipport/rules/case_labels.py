"""HP512: `case` labels a HIP `switch` cannot have.

An error-string helper lists every status of a CUDA library:
`case CUFFT_NVRTC_FAILURE: return "CUFFT_NVRTC_FAILURE";`.  hipFFT has no such
status, so the renamed switch does not compile, and every program including
the helper fails.  The HIP library can never return a value it does not
declare, so the label goes, and with it the statements only it reaches.  The
same holds for a label whose enumerator maps to the HIP value of a label
above it in the same switch (`CUSOLVER_STATUS_IRS_INTERNAL_ERROR` and
`CUSOLVER_STATUS_INTERNAL_ERROR` are both `HIPSOLVER_STATUS_INTERNAL_ERROR`:
a duplicate case value).

Fall-through is kept: a label's statements are removed only when nothing
falls into them (the label is the switch's first, or the group above ends in
`break`, `return`, `continue`, `goto` or `throw`); otherwise only the label
goes and its statements join the group above, which reached them anyway.

What counts as "no HIP counterpart" is the catalogue's, for the target
release (`--rocm-version`): unsupported or removed entries, and entries the
target does not have yet (HP905)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from tree_sitter import Node, Tree

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.parse.model import Reference
from hipport.rules import Context, file_rule
from hipport.table.schema import Mapping, Status
from hipport.table.versions import Availability, for_target, unavailable_reason

_JUMPS = frozenset({"return_statement", "break_statement", "continue_statement",
                    "goto_statement", "throw_statement"})
# Conditional blocks a label may sit in (`#if CUDA_VERSION >= 12000`).
_CONDITIONAL = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else",
                          "preproc_elifdef"})


@dataclass(frozen=True)
class Removal:
    """One label (and maybe its statements) removed, and why."""

    case: Node
    name: str
    why: str
    whole: bool  # the statements go too
    duplicate: bool  # a label above has its HIP value (else: HIP has none)
    library: str  # the HIP library (`hipfft`), for messages

    @property
    def span(self) -> tuple[int, int]:
        """What goes: the whole statement, or the label up to its colon."""
        if self.whole:
            return self.case.start_byte, self.case.end_byte
        colon = next(c for c in self.case.children if c.type == ":")
        return self.case.start_byte, colon.end_byte


def _case_of(node: Node) -> Node | None:
    """The `case` statement whose value is exactly ``node`` (maybe in parentheses)."""
    while node.parent is not None and node.parent.type == "parenthesized_expression":
        node = node.parent
    parent = node.parent
    if parent is None or parent.type != "case_statement":
        return None
    value = parent.child_by_field_name("value")
    return parent if value is not None and value.id == node.id else None


def _switch_of(case: Node) -> Node | None:
    node = case.parent
    while node is not None and node.type in _CONDITIONAL:
        node = node.parent
    if node is None or node.type != "compound_statement":
        return None
    switch = node.parent
    return switch if switch is not None and switch.type == "switch_statement" else None


def _statements(case: Node) -> list[Node]:
    value = case.child_by_field_name("value")
    return [c for c in case.named_children
            if c.type != "comment" and (value is None or c.id != value.id)]


def _ends_in_jump(case: Node) -> bool:
    body = _statements(case)
    last = body[-1] if body else None
    while last is not None and last.type == "compound_statement":
        inner = [c for c in last.named_children if c.type != "comment"]
        last = inner[-1] if inner else None
    return last is not None and last.type in _JUMPS


def _previous(case: Node) -> Node | None | bool:
    """The `case` statement just above ``case`` in its switch; None when it is
    the first; False when that is not known (a conditional block between)."""
    sibling = case.prev_named_sibling
    while sibling is not None and sibling.type == "comment":
        sibling = sibling.prev_named_sibling
    if sibling is None:
        return None if case.parent is not None and case.parent.type == "compound_statement" \
            else False
    return sibling if sibling.type == "case_statement" else False


_Above = Node | None | bool  # what _previous answers


def _group_above(case: Node, gone: dict[int, _Above]) -> _Above:
    """The group that falls into ``case``'s statements, if any: the case above,
    skipping the labels already removed with all they hold (a removed label
    with no statements, or with statements nothing else reached), which pass
    nothing on; ``gone`` maps each of those to the group above it."""
    above = _previous(case)
    if isinstance(above, Node) and above.id in gone:
        return gone[above.id]
    return above


def _reached_only_by_label(above: _Above) -> bool:
    """Nothing falls into a case's statements from ``above``, its group above."""
    if above is None:
        return True
    return isinstance(above, Node) and _ends_in_jump(above)


def _unavailable(ctx: Context, entry: Mapping) -> str | None:
    """Why ``entry``'s enumerator has no value in HIP for the target, if it has none."""
    if not entry.status.converts or entry.hip is None:
        removed = " was removed from CUDA and" if entry.status is Status.REMOVED else ""
        return f"`{entry.cuda}`{removed} has no HIP counterpart"
    target = ctx.settings.rocm_version
    mapped, availability = for_target(entry, target)
    if target is not None and availability is not Availability.AVAILABLE:
        return unavailable_reason(mapped, availability, target)
    return None


def _hip_value(ctx: Context, entry: Mapping) -> str | None:
    mapped, _ = for_target(entry, ctx.settings.rocm_version)
    return mapped.hip


def removals(ctx: Context) -> list[Removal]:
    """The labels this file's switches cannot keep, in file order."""
    tree = ctx.analysis.tree
    if not isinstance(tree, Tree) or b"case" not in ctx.data:
        return []
    labels: list[tuple[Node, Node, Reference, Mapping]] = []
    for ref in ctx.analysis.references:
        entry = ctx.table.lookup(ref.name)
        if entry is None or entry.kind != "enum" or ref.name in ctx.analysis.declared:
            continue
        node = tree.root_node.descendant_for_byte_range(ref.start, ref.end)
        case = _case_of(node) if node is not None and node.type == "identifier" else None
        switch = _switch_of(case) if case is not None else None
        if case is not None and switch is not None:
            labels.append((case, switch, ref, entry))
    chosen: list[tuple[Node, Mapping, str, bool]] = []
    first_of: dict[tuple[int, str], str] = {}
    for case, switch, ref, entry in sorted(labels, key=lambda label: label[0].start_byte):
        why = _unavailable(ctx, entry)
        if why is not None:
            chosen.append((case, entry, why, False))
            continue
        hip = _hip_value(ctx, entry) or ref.name
        above = first_of.setdefault((switch.id, hip), ref.name)
        if above != ref.name:
            chosen.append((case, entry, f"`{ref.name}` is `{hip}` in HIP, the value of "
                           f"the `case {above}:` above (a duplicate case value)", True))
    gone: dict[int, _Above] = {}
    out: list[Removal] = []
    for case, entry, why, duplicate in chosen:
        group = _group_above(case, gone)
        whole = _reached_only_by_label(group)
        if whole or not _statements(case):
            gone[case.id] = group
        out.append(Removal(case, entry.cuda, why, whole, duplicate,
                           entry.hip_library or "the HIP library"))
    return out


def _line_bounds(data: bytes, start: int, end: int) -> tuple[int, int]:
    """``start``-``end`` widened to whole lines when nothing else is on them
    (a `//` comment after the end goes too)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    if data[line_start:start].strip():
        return start, _after_spaces(data, end)
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end == -1 else line_end + 1
    rest = data[end:line_end].strip()
    if rest and not rest.startswith(b"//"):
        return start, _after_spaces(data, end)
    return line_start, line_end


def _after_spaces(data: bytes, end: int) -> int:
    while end < len(data) and data[end:end + 1] in (b" ", b"\t"):
        end += 1
    return end


def _edit(data: bytes, removal: Removal) -> Edit:
    start, end = removal.span
    if removal.whole:
        return Edit(*_line_bounds(data, start, end), b"")
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    if not data[line_start:start].strip() and \
            not data[end:len(data) if line_end == -1 else line_end].strip():
        return Edit(line_start, len(data) if line_end == -1 else line_end + 1, b"")
    return Edit(start, _after_spaces(data, end), b"")


def removed_spans(ctx: Context) -> list[tuple[int, int]]:
    """What the labels removed cover: the names there are no references any more."""
    return [r.span for r in removals(ctx)]


@file_rule("case-labels", codes=("HP512",))
def case_labels(ctx: Context) -> Iterator[Finding]:
    for removal in removals(ctx):
        label = f"`case {removal.name}:`"
        reason = ("the label above takes that value" if removal.duplicate
                  else f"{removal.library} never returns it")
        if removal.whole:
            what = f"{label} goes with its statements: {reason}"
        else:
            what = (f"{label} goes: {reason}; its statements stay, as the case above "
                    "falls through into them")
        fix = Fix((_edit(ctx.data, removal),), Applicability.SAFE, f"Remove {label}")
        start, end = removal.span
        yield Finding("HP512", f"{removal.why}; {what}", start, end, fix=fix)
