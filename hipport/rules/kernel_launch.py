"""`kernel<<<grid, block[, shmem[, stream]]>>>(args)` -> `hipLaunchKernelGGL(...)`.

Only with ``--launch-syntax hip``: the triple-chevron syntax is valid HIP, so
it is kept by default.  The rewrite edits only the punctuation around the
configuration, so renames inside the arguments still apply.
"""
from __future__ import annotations

from typing import Iterator

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule


@file_rule("kernel-launch")
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
