"""`kernel<<<grid, block[, shmem[, stream]]>>>(args)` -> `hipLaunchKernelGGL(...)`.

Only with ``--launch-syntax hip``: the triple-chevron syntax is valid HIP, so
it is kept by default.  The rewrite edits only the punctuation around the
configuration, so renames inside the arguments still apply.

A launch kept whose chevrons are spaced (``k << <g, b >> > (x)``, which nvcc
accepts and clang does not) gets them joined (HP312), in both strategies.
"""
from __future__ import annotations

from typing import Iterator

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.chevrons import spaced_launches
from hipport.rules import Context, RuleRole, file_rule

LAUNCH_JOINED = "HP312"


@file_rule("kernel-launch", codes=("HP301",), role=RuleRole.REWRITE)
def rewrite_launches(ctx: Context) -> Iterator[Finding]:
    if ctx.settings.launch_syntax != "hip":
        return
    for launch in ctx.analysis.launches:
        start, end = launch.kernel[0], launch.config_close[1]
        if launch.has_comments:
            yield Finding("HP301", "kernel launch not rewritten: a comment sits inside its "
                          "`<<<`/`>>>` punctuation", start, end)
            continue
        wrap = launch.kernel_is_template
        defaults = b", 0" * (4 - len(launch.config))
        edits = (
            Edit(start, start, b"hipLaunchKernelGGL(" + (b"HIP_KERNEL_NAME(" if wrap else b"")),
            Edit(launch.config_open[0], launch.config_open[1], b"), " if wrap else b", "),
            Edit(launch.config_close[0], launch.config_close[1],
                 defaults + (b", " if launch.args else b"")),
        )
        kernel = ctx.data[launch.kernel[0]:launch.kernel[1]].decode("utf-8", "replace")
        yield Finding("HP301", f"launch of `{kernel}` -> hipLaunchKernelGGL", start, end,
                      fix=Fix(edits, title="Use hipLaunchKernelGGL"))


@file_rule("launch-chevrons", codes=(LAUNCH_JOINED,), role=RuleRole.REWRITE)
def join_spaced_chevrons(ctx: Context) -> Iterator[Finding]:
    if ctx.settings.launch_syntax == "hip" or not ctx.analysis.launches:
        return  # hipLaunchKernelGGL replaces the chevrons whatever their spelling
    launches = {launch.config_open[0]: launch for launch in ctx.analysis.launches}
    for (open_start, open_end), (close_start, close_end) in spaced_launches(ctx.data):
        launch = launches.get(open_start)
        if launch is None or launch.has_comments:
            continue
        kernel = ctx.data[launch.kernel[0]:launch.kernel[1]].decode("utf-8", "replace")
        edits = (Edit(open_start, open_end, b"<<<"), Edit(close_start, close_end, b">>>"))
        yield Finding(LAUNCH_JOINED, f"launch of `{kernel}` written `<< <`...`>> >`: chevrons "
                      "joined (hipcc's clang reads only `<<<` and `>>>`)", open_start, close_end,
                      fix=Fix(edits, title="Join the launch chevrons"))
