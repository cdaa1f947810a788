"""Code under a version or platform test (``#if CUDART_VERSION >= 11070``,
``#ifdef __HIP_PLATFORM_AMD__``) is what a project compiles only where it
exists: such uses still need their library, but must not raise the ROCm
release the tree needs."""
from __future__ import annotations

import re
from typing import Any

Span = tuple[int, int]

_WORD = re.compile(rb"[A-Za-z_]\w*")
_PREFIXES = (b"__CUDA", b"__NVCC", b"__HIP", b"CUDA_", b"CUDART_", b"HIP_", b"ROCM_")


def is_version_or_platform_test(condition: bytes) -> bool:
    return any(b"VERSION" in w or w.startswith(_PREFIXES) for w in _WORD.findall(condition))


def guarded_spans(tree: Any) -> list[Span]:
    """Byte spans of the #if/#ifdef blocks (all branches) whose condition
    tests a CUDA/HIP/ROCm version or platform macro."""
    from tree_sitter import Query, QueryCursor

    from hipport.parse.syntax import LANGUAGE

    query = _query(Query, LANGUAGE)
    spans: list[Span] = []
    for _, match in QueryCursor(query).matches(tree.root_node):
        block, condition = match["block"][0], match["cond"][0]
        if is_version_or_platform_test(condition.text or b""):
            spans.append((block.start_byte, block.end_byte))
    return spans


_CACHE: dict[str, Any] = {}


def _query(query_type: Any, language: Any) -> Any:
    if "q" not in _CACHE:
        _CACHE["q"] = query_type(language, """
            (preproc_if condition: (_) @cond) @block
            (preproc_ifdef name: (identifier) @cond) @block
        """)
    return _CACHE["q"]


def inside(spans: list[Span], offset: int) -> bool:
    return any(start <= offset < end for start, end in spans)
