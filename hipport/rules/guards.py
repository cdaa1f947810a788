"""Tests of CUDA header include guards (`#ifdef CUBLAS_API_H_`,
`defined(__DRIVER_TYPES_H__)`): helper headers use them to ask "was this
header included?".  After conversion the CUDA guard is never defined, so the
test becomes one of the macro the HIP header defines (catalogue ``guard:``)."""
from __future__ import annotations

from typing import Iterator

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.model import Role
from hipport.rules import Context, RuleRole, file_rule
from hipport.table.versions import Availability, for_target

GUARD_TEST = "HP308"


@file_rule("header-guards", codes=(GUARD_TEST,), role=RuleRole.REWRITE)
def rewrite_guard_tests(ctx: Context) -> Iterator[Finding]:
    guards = ctx.table.guards
    for ref in ctx.analysis.references:
        header = guards.get(ref.name) if ref.role is Role.PP_CONDITION else None
        if header is None or header.guard is None or not header.status.converts:
            continue
        entry, availability = for_target(header, ctx.settings.rocm_version)
        if ctx.settings.rocm_version is not None and availability is not Availability.AVAILABLE:
            continue  # the include stays CUDA's too (HP905)
        hip = header.guard[1]
        fix = Fix((Edit(ref.start, ref.end, hip.encode()),),
                  title=f"Test `{hip}` instead of `{ref.name}`")
        yield Finding(GUARD_TEST, f"`{ref.name}` tells that <{header.cuda}> was included; "
                      f"<{entry.hip}> defines `{hip}` -> tested instead", ref.start, ref.end,
                      fix=fix, cuda_name=ref.name, hip_name=hip, library=header.library)
