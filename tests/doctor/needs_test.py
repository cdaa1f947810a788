"""The tree line of `hipport doctor PATH`."""
from __future__ import annotations

import pytest


@pytest.mark.parametrize("files, uses, words", [
    (1, 1, "t: 1 source file; 0 CUDA and 1 HIP use of"),
    (2, 3, "t: 2 source files; 0 CUDA and 3 HIP uses of"),
])
def test_the_tree_line_counts_in_words(files, uses, words):
    from hipport.doctor.needs import tree_checks
    from hipport.doctor.tree import TreeNeeds

    (tree,) = tree_checks(TreeNeeds(("t",), files, 0, uses), None)
    assert tree.detail.startswith(words)
