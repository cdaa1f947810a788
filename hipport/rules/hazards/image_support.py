"""HP413 and HP414: texture and surface reads and writes, and GPUs without
texture units (hipport.gpus).

MI300 (gfx940, gfx941, gfx942) has no texture units: ROCm's headers mark
every texture fetch (`tex1Dfetch`, `tex2D`, `tex3DLod`, ...) and surface
access (`surf2Dread`, ...) `unavailable("The image/texture API not supported
on the device")` when compiling for them, so the file does not compile for
that target (ROCm 6.4; HIP 5.2 does not know gfx942).  gfx90a and the RDNA
GPUs have them.  With `--offload-arch` naming such a GPU, each access is a
blocker (HP413); with hipport's default targets, the run leaves MI300 out of
the targets it writes into build files, and the first access of each file
says so (HP414)."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.gpus import IMAGE_FUNCTIONS, reads_textures, without_images
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, text

_QUERY = query("""
(call_expression function: [(identifier) @name
                            (template_function name: (identifier) @name)]) @call
""")


@file_rule("hazard-image-support", codes=("HP413", "HP414"))
def image_support(ctx: Context) -> Iterator[Finding]:
    if not reads_textures(ctx.data) or not may_hold_device_code(ctx):  # cheap: skip the walk
        return
    archs = ctx.settings.offload_arch
    lacking = without_images(archs)
    left_out = ctx.settings.offload_arch_left_out
    if not lacking and not left_out:
        return
    having = [a for a in archs if a not in lacking]
    instead = f"build for {';'.join(having)} only (`--offload-arch`)" if having else \
        "build for a GPU with texture units (gfx90a, RDNA)"
    for match in matches(ctx, _QUERY):
        name = text(match["name"][0])
        if name not in IMAGE_FUNCTIONS:
            continue
        if left_out:
            yield hazard("HP414", f"`{name}` reads or writes through the texture unit, which "
                         f"{', '.join(left_out)} lacks: left out of the GPU targets written into "
                         f"the build files, which build for {';'.join(archs)} (name the targets "
                         "with `--offload-arch`)", match["call"][0])
            return  # once per file
        yield hazard("HP413", f"`{name}` reads or writes through the texture unit, which "
                     f"{', '.join(lacking)} lacks: ROCm declares it unavailable there and the "
                     f"file does not compile for that target; {instead}, or load the memory "
                     "directly", match["call"][0])
