"""The programmatic interface: pure functions over bytes."""
from __future__ import annotations

from pathlib import Path

from hipport.convert import ConversionResult, convert_bytes
from hipport.parse import get_backend
from hipport.settings import Settings
from hipport.table import MappingTable, load_table

__all__ = ["ConversionResult", "convert_source"]


def convert_source(source: bytes | str, settings: Settings | None = None,
                   table: MappingTable | None = None, *,
                   name: str | None = None) -> ConversionResult:
    """Convert one CUDA source text to HIP.  ``name`` (e.g. ``"helper.h"``) is
    the file name the text would have: its suffix tells a header or a ``.cu``
    file, which nvcc compiles with an implicit ``#include <cuda_runtime.h>``,
    from other C++ (docs/preprocessor.md).

    >>> convert_source("cudaMalloc(&p, n);").output
    b'hipMalloc(&p, n);'
    """
    data = source.encode("utf-8") if isinstance(source, str) else source
    return convert_bytes(data, get_backend("syntax"), table or load_table(),
                         settings or Settings(), None if name is None else Path(name))
