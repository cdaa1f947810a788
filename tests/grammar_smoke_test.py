"""The CUDA grammar must load under the installed tree-sitter and parse CUDA
constructs without errors; if a grammar upgrade breaks this, this fails first."""
from __future__ import annotations

from importlib.metadata import version

import tree_sitter_cuda
from tree_sitter import Language, Parser

SOURCE = b"""
template <typename T, int N>
__global__ void __launch_bounds__(256) k(T* p) {
    extern __shared__ float s[]; p[threadIdx.x] = s[0];
}
int main() { k<float, 2><<<dim3(1), 64, 0, 0>>>(nullptr); }
"""


def test_grammar_loads_and_parses_cuda():
    language = Language(tree_sitter_cuda.language())
    tree = Parser(language).parse(SOURCE)
    assert not tree.root_node.has_error, str(tree.root_node)
    kinds = set()
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        kinds.add(node.type)
        stack.extend(node.children)
    assert "kernel_call_syntax" in kinds and "template_function" in kinds
    major, minor = (int(x) for x in version("tree-sitter").split(".")[:2])
    assert (major, minor) >= (0, 23)
