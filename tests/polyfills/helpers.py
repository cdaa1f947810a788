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
from hipport.compat.strategy import CompatStrategy
from hipport.delivery import Mode
from hipport.pipeline import run
from hipport.polyfills import (
    DEFAULT_HEADER,
    Exactness,
    Fallback,
    bundled_polyfills,
)
from hipport.request import Request
from hipport.rewrite import RewriteStrategy
from hipport.settings import Settings
from hipport.strategy import Strategy
from hipport.table.schema import parse_version
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


def _converted_tree(use: Path, out: Path, target: str, strategy: Strategy) -> Path:
    """``use`` converted by the pipeline (as `hipport convert -o` does), every
    exactness allowed, for ROCm ``target``."""
    src = out.parent / f"{out.name}-src"
    src.mkdir(parents=True, exist_ok=True)
    shutil.copy(use, src / use.name)
    settings = Settings(rocm_version=parse_version(target),
                        polyfills=tuple(e.value for e in EVERY_EXACTNESS))
    results = run(Request((src,), Mode.MIRROR, settings, output=out, cache=False, jobs=1,
                          force=True, strategy=strategy)).results
    assert not [r for r in results if r.outcome.value == "failed"], results
    return out / use.name


def rewrite_unit(use: Path, out: Path, names: list[str], target: str,
                 polyfill: bool = True) -> Path:
    """``use`` converted for ROCm ``target`` in ``out``: by the pipeline, which
    writes the polyfill header for what ``use`` names (``names``) and
    includes it; or, ``polyfill=False``, without it: what fails today."""
    if polyfill:
        unit = _converted_tree(use, out, target, RewriteStrategy())
        text = unit.read_bytes()
        assert INCLUDE in text, text.decode()
        assert not provided_headers(names) & {h for h in provided_headers(names)
                                              if h.encode() in text}
        return unit
    out.mkdir(parents=True, exist_ok=True)
    converted = convert_source(use.read_bytes(), Settings(rocm_version=parse_version(target),
                                                          polyfills=())).output
    unit = out / use.name
    unit.write_bytes(converted)
    return unit


def compat_unit(use: Path, out: Path, names: list[str], target: str) -> Path:
    """``use`` converted with --strategy compat in ``out``: the fallbacks
    inside the compat header."""
    unit = _converted_tree(use, out, target, CompatStrategy())
    header = (out / "hip_compat.h").read_text()
    assert "/* polyfill " in header, header
    return unit
