"""The polyfill header: fallbacks for the CUDA APIs ROCm lacks.

Each fallback is data in ``mappings/polyfills/*.yaml`` (its CUDA names, C++
code, exactness, the ROCm release with the real API, what it requires), read
and checked by ``schema`` and ``load``; ``render`` picks the fallbacks a set
of CUDA names needs and writes ``hipport_polyfills.h``; ``docs`` makes
docs/polyfills.md.  docs/polyfills.md describes the format and the API."""
from __future__ import annotations

from hipport.polyfills.load import Polyfills, bundled_polyfills, parse_files
from hipport.polyfills.model import (
    DEFAULT_EXACTNESS,
    Exactness,
    Fallback,
    Family,
    Name,
    Rocm,
)
from hipport.polyfills.render import (
    DEFAULT_HEADER,
    DEFAULT_TARGET,
    FORWARDERS,
    GUARD,
    MARKER,
    Emulation,
    Status,
    covered_names,
    emulations,
    is_generated,
    render,
    render_fallbacks,
    section_lines,
    select,
)
from hipport.polyfills.schema import is_polyfill_file, parse_polyfill_file

__all__ = [
    "DEFAULT_EXACTNESS", "DEFAULT_HEADER", "DEFAULT_TARGET", "FORWARDERS", "GUARD", "MARKER",
    "Emulation",
    "Exactness", "Fallback", "Family", "Name", "Polyfills", "Rocm", "Status",
    "bundled_polyfills", "covered_names", "emulations", "is_generated", "is_polyfill_file",
    "parse_files", "parse_polyfill_file", "render", "render_fallbacks", "section_lines",
    "select",
]
