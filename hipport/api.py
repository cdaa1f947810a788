"""The programmatic interface: pure functions over bytes."""
from __future__ import annotations

from pathlib import Path

from hipport.convert import ConversionResult, unreadable_result
from hipport.parse import get_backend
from hipport.rewrite import RewriteStrategy
from hipport.settings import Settings
from hipport.strategy import Strategy
from hipport.table import MappingTable, load_table

__all__ = ["ConversionResult", "convert_source"]


def convert_source(source: bytes | str, settings: Settings | None = None,
                   table: MappingTable | None = None, *, name: str | None = None,
                   strategy: Strategy = RewriteStrategy()) -> ConversionResult:
    """Convert one CUDA source text to HIP.  ``name`` (e.g. ``"helper.h"``) is
    the file name the text would have: its suffix tells a header or a ``.cu``
    file, which nvcc compiles with an implicit ``#include <cuda_runtime.h>``,
    from other C++ (docs/preprocessor.md).  ``strategy``: how (``RewriteStrategy``:
    CUDA becomes HIP; ``hipport.compat.strategy.CompatStrategy``: the code stays
    CUDA and includes a generated header).

    >>> convert_source("cudaMalloc(&p, n);").output
    b'hipMalloc(&p, n);'
    """
    data = source.encode("utf-8") if isinstance(source, str) else source
    settings = settings or Settings()
    return unreadable_result(data, settings) or strategy.convert_source(
        data, get_backend("syntax"), table or load_table().in_mode(settings.roc), settings,
        None if name is None else Path(name))
