"""Putting a fallback's use (tests/polyfills/uses/ID.cu, a CUDA translation
unit) in the two places the polyfill header will serve, as the wiring will:

* rewrite: the use converted by `hipport convert`, the generated
  ``hipport_polyfills.h`` beside it and included first, the includes of the
  CUDA headers the polyfills provide (``cooperative_groups/reduce.h``)
  dropped;
* compat: the use converted by ``--strategy compat`` (CUDA names everywhere,
  ``hip_compat.h`` mapping them), the polyfill header included right after
  ``hip_compat.h``.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from hipport.api import convert_source
from hipport.polyfills import (
    DEFAULT_HEADER,
    Exactness,
    Fallback,
    bundled_polyfills,
    render,
)
from hipport.settings import Settings
from hipport.table.schema import parse_version
from tests.compat.helpers import compat_tree
from tests.toolchain import HipOracle

HERE = Path(__file__).resolve().parent
USES = HERE / "uses"
POLYFILLS = bundled_polyfills()
NAMED = [f for f in POLYFILLS if f.names]
EVERY_EXACTNESS = frozenset(Exactness)
INCLUDE = f'#include "{DEFAULT_HEADER}"\n'.encode()


def use_of(fallback: Fallback) -> Path:
    return USES / f"{fallback.id}.cu"


def target_of(oracle: HipOracle) -> str:
    return "{}.{}".format(*oracle.hip_version)


def arch_args(oracle: HipOracle) -> list[str]:
    """hipcc compiles for gfx90a already; the other GPUs the oracle knows."""
    return [f"--offload-arch={arch}" for arch in oracle.offload_archs if arch != "gfx90a"]


def provided_headers(names: list[str]) -> set[str]:
    """The CUDA headers among ``names`` that the polyfill header provides."""
    return {n.cuda for name in names for n in POLYFILLS.by_name[name].names
            if n.kind == "header" and n.cuda == name}


def drop_provided_includes(text: bytes, headers: set[str]) -> bytes:
    """The ``#include`` lines of CUDA headers the polyfill header provides,
    removed (what the rewrite wiring does with them)."""
    for header in headers:
        line = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]" + re.escape(header.encode()) +
                          rb"[>\"][^\n]*\n", re.MULTILINE)
        text = line.sub(b"", text)
    return text


def rewrite_unit(use: Path, out: Path, names: list[str], target: str,
                 polyfill: bool = True) -> Path:
    """``use`` converted for ROCm ``target`` in ``out``, with the header for
    ``names`` (or, ``polyfill=False``, without it: what fails today)."""
    out.mkdir(parents=True, exist_ok=True)
    converted = convert_source(use.read_bytes(),
                               Settings(rocm_version=parse_version(target))).output
    unit = out / use.name
    if polyfill:
        (out / DEFAULT_HEADER).write_bytes(render(names, target, EVERY_EXACTNESS))
        converted = INCLUDE + drop_provided_includes(converted, provided_headers(names))
    unit.write_bytes(converted)
    return unit


def compat_unit(use: Path, out: Path, names: list[str], target: str) -> Path:
    """``use`` converted with --strategy compat in ``out``; the polyfill
    header is included after the compat header."""
    src = out.parent / f"{out.name}-src"
    src.mkdir(parents=True, exist_ok=True)
    shutil.copy(use, src / use.name)
    results = compat_tree(src, out, rocm_version=parse_version(target))
    assert not [r for r in results if r.outcome.value == "failed"], results
    (out / DEFAULT_HEADER).write_bytes(render(names, target, EVERY_EXACTNESS))
    unit = out / use.name
    text = unit.read_bytes()
    compat_include = re.search(rb'^#include "hip_compat\.h"[^\n]*\n', text, re.MULTILINE)
    assert compat_include is not None, text.decode()
    unit.write_bytes(text[:compat_include.end()] + INCLUDE + text[compat_include.end():])
    return unit
