"""HP502: kernels launched from device code (dynamic parallelism), which
HIP does not support."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    enclosing_function,
    hazard,
    is_device_function,
    matches,
    may_hold_device_code,
    query,
    text,
)

# Every cudaLaunch* (cudaLaunchKernel, cudaLaunchCooperativeKernel, ...) and
# the parameter buffer a device-side launch fills.
_DEVICE_RUNTIME = ("^(cudaLaunch[A-Za-z_]*|cudaGraphLaunch|cudaDeviceSynchronize"
                   "|cudaGetParameterBuffer[A-Za-z]*)$")
_QUERY = query(f"""
(call_expression function: (_) @kernel (kernel_call_syntax)) @launch
(call_expression function: (identifier) @api
  (#match? @api "{_DEVICE_RUNTIME}")) @launch
""")


@file_rule("hazard-device-launch", codes=("HP502",))
def device_launch(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    for match in matches(ctx, _QUERY):
        launch = match["launch"][0]
        function = enclosing_function(launch)
        if not is_device_function(function):
            continue
        if "kernel" in match:
            what = f"launch of `{text(match['kernel'][0])}`"
        else:
            what = f"`{text(match['api'][0])}`"
        yield hazard("HP502", f"{what} from device code (dynamic parallelism); HIP cannot "
                     "launch work from a kernel", launch)
