"""`--roc`: the catalogue as it converts to the ROCm libraries themselves
(cuBLAS to rocBLAS, cuRAND to rocRAND) instead of their hip* wrappers.

An entry of a library that mappings/rocm-libraries.yaml gives a ``roc``
counterpart converts to its ``roc`` mapping; one without (a name the
catalogue knows only the hip* target of) becomes a gap, an unsupported
entry every rule reports (HP901, naming the wrapper's name) instead of
emitting that name, which would not compile beside the roc library's types.  Entries of other
libraries (cuFFT stays hipFFT, the runtime stays HIP) are as they are."""
from __future__ import annotations

import functools
from dataclasses import replace

from hipport.libraries import library_table
from hipport.table.schema import Mapping, Row, Status


@functools.lru_cache(maxsize=1)
def _roc_keys() -> frozenset[str]:
    return frozenset(lib.key for lib in library_table().roc_libraries.values())


def roc_rows(rows: dict[str, Row]) -> dict[str, Row]:
    """``rows`` with every entry of a library --roc converts otherwise
    replaced by its roc mapping, or by a gap."""
    libraries = library_table().roc_libraries
    out = dict(rows)
    for name, row in rows.items():
        if row[3] in libraries:
            out[name] = for_roc(Mapping.from_row(row)).to_row()
    return out


def for_roc(entry: Mapping) -> Mapping:
    """What ``entry`` is with --roc (the entry of a library --roc converts)."""
    if entry.roc is not None:
        return entry.roc
    if not entry.status.converts:
        return entry  # no HIP counterpart either: HP901 says so
    roc = library_table().roc_libraries[entry.library]
    wrapper = library_table().rocm_by_key.get(entry.hip_library or "")
    via = wrapper.name if wrapper is not None else "the hip* library"
    return replace(entry, hip=None, status=Status.UNSUPPORTED, hip_library=roc.key,
                   note=f"{via} has `{entry.hip}` (convert without --roc for it)",
                   unsafe=False, rule=None, rocm_version=(), older=None, newer=None, guard=None,
                   cxx_only=False, casts=(), roc=None)


def counterpart(entry: Mapping) -> str:
    """What an unsupported ``entry`` lacks, for HP901's message: "HIP
    equivalent", or with --roc "rocBLAS counterpart" (a gap, or a roc
    mapping saying the library has none)."""
    if entry.hip_library in _roc_keys():
        lib = library_table().rocm_by_key[entry.hip_library or ""]
        return f"{lib.name} counterpart (--roc)"
    return "HIP equivalent"
