"""HP413: a texture or surface read or write built for a GPU without image
support.

MI300 (gfx940, gfx941, gfx942) has no texture units: ROCm's headers mark
every texture fetch (`tex1Dfetch`, `tex2D`, `tex3DLod`, ...) and surface
access (`surf2Dread`, ...) `unavailable("The image/texture API not supported
on the device")` when compiling for them, so the file does not compile for
that target (ROCm 6.4; HIP 5.2 does not know gfx942).  gfx90a and the RDNA
GPUs have them.  The GPUs are those built for: `--offload-arch`, or
hipport's default targets (gfx90a;gfx942)."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, text

# The functions ROCm 6.4 declares with __hip_img_chk__ (amd_detail/
# texture_fetch_functions.h, texture_indirect_functions.h, amd_surface_functions.h).
IMAGE_FUNCTIONS = frozenset({
    "tex1D", "tex1DGrad", "tex1DLayered", "tex1DLayeredGrad", "tex1DLayeredLod", "tex1DLod",
    "tex1Dfetch", "tex2D", "tex2DGrad", "tex2DLayered", "tex2DLayeredGrad", "tex2DLayeredLod",
    "tex2DLod", "tex2Dgather", "tex3D", "tex3DGrad", "tex3DLod", "texCubemap",
    "texCubemapGrad", "texCubemapLayered", "texCubemapLayeredGrad", "texCubemapLayeredLod",
    "texCubemapLod", "surf1Dread", "surf1Dwrite", "surf1DLayeredread", "surf1DLayeredwrite",
    "surf2Dread", "surf2Dwrite", "surf2DLayeredread", "surf2DLayeredwrite", "surf3Dread",
    "surf3Dwrite", "surfCubemapread", "surfCubemapwrite", "surfCubemapLayeredread",
    "surfCubemapLayeredwrite",
})
# The GPUs ROCm's amd_device_functions.h defines __HIP_NO_IMAGE_SUPPORT for.
WITHOUT_IMAGES = frozenset({"gfx940", "gfx941", "gfx942"})

_QUERY = query("""
(call_expression function: [(identifier) @name
                            (template_function name: (identifier) @name)]) @call
""")


@file_rule("hazard-image-support", codes=("HP413",))
def image_support(ctx: Context) -> Iterator[Finding]:
    if b"tex" not in ctx.data and b"surf" not in ctx.data:  # cheap: skip the walk
        return
    lacking = [a for a in ctx.settings.offload_arch if a.split(":", 1)[0] in WITHOUT_IMAGES]
    if not lacking or not may_hold_device_code(ctx):
        return
    names = ", ".join(lacking)
    having = [a for a in ctx.settings.offload_arch if a not in lacking]
    instead = f"build for {';'.join(having)} only (`--offload-arch`)" if having else \
        "build for a GPU with texture units (gfx90a, RDNA)"
    for match in matches(ctx, _QUERY):
        name = text(match["name"][0])
        if name not in IMAGE_FUNCTIONS:
            continue
        yield hazard("HP413", f"`{name}` reads or writes through the texture unit, which "
                     f"{names} lacks: ROCm declares it unavailable there and the file does not "
                     f"compile for that target; {instead}, or load the memory directly",
                     match["call"][0])
