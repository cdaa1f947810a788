"""HP418: `atomicAdd` on a 16-bit floating-point address, which CUDA
declares (cuda_fp16.h, cuda_bf16.h) and ROCm does not (amd_hip_atomic.h has
ints, floats and doubles): the converted call does not compile.  The type is
seen where the call casts the address, the usual shape in packed kernels."""
from __future__ import annotations

import re
from typing import Iterator

from hipport.findings import Finding
from hipport.parse.conditions import blank
from hipport.rules import Context, file_rule

# `atomicAdd(` whose first argument casts to a 16-bit floating-point pointer
# (the cast is where hipport can see the address's type).
_HALF_TYPES = (rb"(?:__half2|half2|__half|half|__nv_bfloat162|nv_bfloat162|__nv_bfloat16"
               rb"|nv_bfloat16)")
_HALF_ATOMIC = re.compile(
    rb"\batomicAdd\s*\(\s*(?:reinterpret_cast\s*<\s*(?:const\s+)?(" + _HALF_TYPES
    + rb")\s*\*\s*>|\(\s*(?:const\s+)?(" + _HALF_TYPES + rb")\s*\*\s*\))")


@file_rule("hazard-half-atomics", codes=("HP418",))
def half_atomics(ctx: Context) -> Iterator[Finding]:
    if b"atomicAdd" not in ctx.data:
        return
    for found in _HALF_ATOMIC.finditer(blank(ctx.data)):
        kind = (found.group(1) or found.group(2)).decode()
        pair = kind.endswith("2")
        instead = ("`unsafeAtomicAdd(__half2*, __half2)` adds both halves atomically on "
                   "hipMalloc'd (coarse-grained) memory; elsewhere write a 32-bit "
                   "compare-and-swap loop" if kind in ("half2", "__half2") else
                   "write a 32-bit compare-and-swap loop over the word that holds it")
        yield Finding("HP418", f"`atomicAdd` on `{kind}*`: ROCm declares no atomicAdd for "
                      f"{'a pair of ' if pair else ''}16-bit floats, the call does not "
                      f"compile; {instead}", found.start(), found.start() + len(b"atomicAdd"))
