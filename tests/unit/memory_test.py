"""After a source is converted nothing of its syntax tree is left: no tree,
no node of it, held by a cache.  (Issue 31: module-level caches keyed by the
tree kept a 50 MB file's query matches alive; it peaked at 9.2 GB.)"""
from __future__ import annotations

import gc
from pathlib import Path
from typing import Iterable

import pytest
from tree_sitter import Node, Parser, Tree

from hipport.api import convert_source
from hipport.parse.syntax import LANGUAGE
from hipport.rules.hazards import nodes
from hipport.rules.registry import file_rules

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


def _mentions_marker(item: object) -> bool:
    root = item.root_node if isinstance(item, Tree) else item
    assert isinstance(root, Node)
    while root.parent is not None:
        root = root.parent
    return b"kernel_marker_31" in (root.text or b"")


def test_no_tree_or_node_of_a_converted_source_is_kept() -> None:
    result = convert_source(SOURCE, name="marker.cu")
    assert b"hipMalloc" in result.output  # the rules ran, the output was checked again
    kept = [item for item in _held_syntax() if _mentions_marker(item)]
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
    monkeypatch.setattr(nodes, "WHOLE_TREE_BYTES", 0)
    monkeypatch.setattr(nodes, "CHUNK_BYTES", 2000)
    ranged = convert_source(data, name="all.cu")
    assert ranged.output == whole.output
    assert [(f.code, f.finding.start, f.finding.message, f.applied) for f in ranged.findings] == \
        [(f.code, f.finding.start, f.finding.message, f.applied) for f in whole.findings]
