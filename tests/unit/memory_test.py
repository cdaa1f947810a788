"""After a source is converted nothing of its syntax tree is left: no tree,
no node of it, held by a cache; a huge file's two trees never coexist.
(Issue 31: module-level caches keyed by the tree kept a 50 MB file's query
matches alive; it peaked at 9.2 GB.)"""
from __future__ import annotations

import gc
import sys
from dataclasses import replace
from pathlib import Path
from typing import Iterable

import pytest
from tree_sitter import Node, Parser, Tree

from hipport import convert
from hipport.api import convert_source
from hipport.compat.strategy import CompatStrategy
from hipport.parse import ranges
from hipport.parse.model import Analysis, Edited
from hipport.parse.syntax import LANGUAGE, SyntaxBackend
from hipport.rewrite import RewriteStrategy
from hipport.rules.hazards import nodes
from hipport.rules.registry import file_rules
from hipport.settings import Settings
from hipport.table import load_table
from hipport.table.names import CandidateNames

# Device code (the hazard rules' queries match it), a rename and a launch.
SOURCE = """\
__global__ void kernel_marker_31(float* out, unsigned mask) {
    int lane = threadIdx.x % 32;
    float v = __shfl_down_sync(mask, out[lane], 1);
    out[lane] = v;
}
void run(float* p) {
    cudaMalloc(&p, 128);
    kernel_marker_31<<<1, 32>>>(p, 0xffffffffu);
}
"""


def _held_syntax() -> list[object]:
    """Trees and nodes that a container (a cache's dict, list or key tuple)
    still holds; neither type is tracked by the collector itself."""
    gc.collect()
    held: list[object] = []
    for holder in gc.get_objects():
        if isinstance(holder, dict):
            items = [*holder.keys(), *holder.values()]
        elif isinstance(holder, (list, tuple)):
            items = list(holder)
        else:
            continue
        held.extend(item for item in items if isinstance(item, (Tree, Node)))
    return held


def _mentions(item: object, text: bytes = b"kernel_marker_31") -> bool:
    root = item.root_node if isinstance(item, Tree) else item
    assert isinstance(root, Node)
    while root.parent is not None:
        root = root.parent
    return text in (root.text or b"")


def test_no_tree_or_node_of_a_converted_source_is_kept() -> None:
    result = convert_source(SOURCE, name="marker.cu")
    assert b"hipMalloc" in result.output  # the rules ran, the output was checked again
    kept = [item for item in _held_syntax() if _mentions(item)]
    assert kept == []


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").rglob("*.cu"))


def _spans(found: Iterable[dict[str, list[Node]]]) -> list[list[tuple[str, tuple[object, ...]]]]:
    return [sorted((name, tuple((n.start_byte, n.end_byte, n.type) for n in captured))
                   for name, captured in match.items()) for match in found]


@pytest.mark.parametrize("wrap", ["", "namespace outer {\n"], ids=["top-level", "in-a-namespace"])
@pytest.mark.parametrize("chunk", [1, 300, 5000])
def test_a_large_file_is_matched_in_ranges_with_the_same_matches(wrap: str, chunk: int) -> None:
    """Above WHOLE_TREE_BYTES the hazard queries run over ranges of the file
    (bounded memory): every query's matches, and their order, are those of
    one run over the whole tree, here over all the examples in one file."""
    text = "".join(path.read_text() for path in EXAMPLES)
    data = (f"#ifndef GUARD_H\n#define GUARD_H\n{wrap}{text}{'}' if wrap else ''}\n#endif\n"
            ).encode()
    tree = Parser(LANGUAGE).parse(data)
    file_rules()  # registers every rule's query
    sources = tuple(nodes._KNOWN_QUERIES)
    whole = nodes._matches_by_query(tree, sources)
    assert sum(len(found) for found in whole.values()) > 1000
    for source in sources:
        assert _spans(nodes.chunked_matches(tree.root_node, source, chunk)) == \
            _spans(whole.get(source, [])), source


def test_a_large_file_converts_as_it_did_when_matched_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    data = "".join(path.read_text() for path in EXAMPLES)
    whole = convert_source(data, name="all.cu")
    monkeypatch.setattr(ranges, "WHOLE_TREE_BYTES", 0)
    monkeypatch.setattr(ranges, "CHUNK_BYTES", 2000)
    ranged = convert_source(data, name="all.cu")
    assert ranged.output == whole.output
    assert [(f.code, f.finding.start, f.finding.message, f.applied) for f in ranged.findings] == \
        [(f.code, f.finding.start, f.finding.message, f.applied) for f in whole.findings]


def _comparable(analysis: Analysis) -> tuple[object, ...]:
    """An analysis without its tree; include blocks (node ids, which differ
    between two parses) as the order they first appear in."""
    blocks: dict[int, int] = {}
    includes = [replace(i, block=blocks.setdefault(i.block, len(blocks)))
                for i in analysis.includes]
    return (replace(analysis, tree=None, includes=[]), includes)


@pytest.mark.parametrize("wrap", ["", "namespace outer {\n"], ids=["top-level", "in-a-namespace"])
def test_a_large_file_is_analyzed_in_ranges_with_the_same_result(
        monkeypatch: pytest.MonkeyPatch, wrap: str) -> None:
    """Above WHOLE_TREE_BYTES the front end's captures are taken range by
    range (a huge file's identifiers are not all Python nodes at once): the
    analysis is the one of a single run over the whole tree."""
    spelled = "#define NAME_OF(x) #x\n" + "".join(
        f"{path.read_text()}\nstatic const char* name_{n} = NAME_OF(cudaFree);\n"
        for n, path in enumerate(EXAMPLES))
    data = f"#ifndef G_H\n#define G_H\n{wrap}{spelled}{'}' if wrap else ''}\n#endif\n".encode()
    names = load_table().candidates
    whole = SyntaxBackend().analyze(data, names)
    assert len(whole.references) > 200 and whole.launches and whole.includes
    # NAME_OF(cudaFree) only spells the name: no reference (the calls' query)
    spelled_at = data.index(b"NAME_OF(cudaFree)") + len("NAME_OF(")
    assert data.count(b"cudaFree") > 20 and spelled_at not in {r.start for r in whole.references}
    monkeypatch.setattr(ranges, "WHOLE_TREE_BYTES", 0)
    for chunk in (1, 300, 5000):
        monkeypatch.setattr(ranges, "CHUNK_BYTES", chunk)
        assert _comparable(SyntaxBackend().analyze(data, names)) == _comparable(whole), chunk


class _Watching(SyntaxBackend):
    """Counts, when the output is parsed, who else still holds the input's
    tree (its nodes hold it too)."""

    def __init__(self) -> None:
        super().__init__()
        self.first_tree: object = None
        self.other_holders: list[int] = []

    def analyze(self, data: bytes, names: CandidateNames, path: Path | None = None,
                edited: Edited | None = None) -> Analysis:
        if self.first_tree is None:
            analysis = super().analyze(data, names, path, edited)
            self.first_tree = analysis.tree
            return analysis
        self._count()
        return super().analyze(data, names, path, edited)

    def error_count(self, data: bytes) -> int:
        self._count()
        return super().error_count(data)

    def _count(self) -> None:
        # Not counted: this watcher's attribute and getrefcount's argument.
        self.other_holders.append(sys.getrefcount(self.first_tree) - 2)


@pytest.mark.parametrize("stability_check", [True, False], ids=["second-pass", "reparse"])
def test_a_large_files_first_tree_is_released_before_its_output_is_parsed(
        monkeypatch: pytest.MonkeyPatch, stability_check: bool) -> None:
    """The two trees of a huge file never coexist: above REUSE_TREE_BYTES the
    first pass's tree is let go before the output is parsed (afresh), in the
    second pass and in the re-parse of --fast alike."""
    monkeypatch.setattr(convert, "REUSE_TREE_BYTES", 0)
    backend = _Watching()
    settings = Settings(stability_check=stability_check)
    result = RewriteStrategy().convert_source(SOURCE.encode(), backend, load_table(), settings,
                                              Path("marker.cu"))
    assert b"hipMalloc" in result.output
    assert backend.other_holders == [0]


def test_the_compat_strategys_first_tree_is_released_before_its_output_is_parsed() -> None:
    backend = _Watching()
    result = CompatStrategy().convert_source(SOURCE.encode(), backend, load_table(), Settings(),
                                             Path("marker.cu"))
    assert b"hip_compat.h" in result.output
    assert backend.other_holders == [0]


def test_a_small_files_second_pass_reuses_its_first_tree() -> None:
    """Below REUSE_TREE_BYTES the second pass reparses incrementally (the
    first tree is still held then); the result is the same."""
    backend = _Watching()
    result = RewriteStrategy().convert_source(SOURCE.encode(), backend, load_table(),
                                              Settings(), Path("marker.cu"))
    assert len(backend.other_holders) == 1 and backend.other_holders[0] > 0
    assert result.output == convert_source(SOURCE, name="marker.cu").output
