"""What hipport knows of AMD GPUs' hardware where it decides how code builds,
and the GPU targets a run writes into build files.

Those are the user's (``--offload-arch``), else hipport's defaults less the
ones the tree's code cannot be built for: MI300 (gfx940-gfx942) has no
texture units, and ROCm declares the texture and surface API unavailable
when compiling for it, so a tree that reads textures is built for the other
default targets (HP414 says so at each file that reads them; with
``--offload-arch`` naming gfx942, HP413 reports each access instead)."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from hipport.settings import DEFAULT_OFFLOAD_ARCH, Settings
from hipport.tree_facts import any_file

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
_RDNA = re.compile(r"gfx1[0-9]{3}[a-z]?")
# A call of one of them, as bytes: the cheap test before a file is parsed.
_IMAGE_CALL = re.compile(rb"\b(?:" + b"|".join(
    re.escape(n.encode()) for n in sorted(IMAGE_FUNCTIONS, key=len, reverse=True))
    + rb")\s*[<(]")
# Each name starts with one of these: a file with neither (most) is passed
# by two memory scans instead of the pattern's try at every word.
_IMAGE_PREFIXES = (b"tex", b"surf")
if not all(n.encode().startswith(_IMAGE_PREFIXES) for n in IMAGE_FUNCTIONS):
    raise RuntimeError("an image function outside _IMAGE_PREFIXES: widen the prefilter")


def processor(arch: str) -> str:
    """``gfx90a:xnack+`` -> ``gfx90a``."""
    return arch.split(":", 1)[0]


def wavefront(arch: str) -> int:
    """Lanes per wavefront of HIP code built for ``arch``: 64 on CDNA, 32 on
    RDNA (gfx10xx-gfx12xx, whose HIP code is built for 32-lane wavefronts)."""
    return 32 if _RDNA.fullmatch(processor(arch)) else 64


def without_images(archs: Iterable[str]) -> list[str]:
    return [a for a in archs if processor(a) in WITHOUT_IMAGES]


def reads_textures(data: bytes) -> bool:
    if not any(prefix in data for prefix in _IMAGE_PREFIXES):
        return False
    return _IMAGE_CALL.search(data) is not None


def targets_for(settings: Settings, sources: Iterable[Path]) -> Settings:
    """``settings`` with the GPU targets the tree can be built for: the
    defaults less MI300 where a source reads textures (``--offload-arch``
    is taken as given)."""
    if settings.offload_arch_given or settings.offload_arch != DEFAULT_OFFLOAD_ARCH:
        return settings
    lacking = without_images(settings.offload_arch)
    keep = tuple(a for a in settings.offload_arch if a not in lacking)
    if not lacking or not keep:
        return settings
    if any_file(sources, reads_textures):
        return replace(settings, offload_arch=keep, offload_arch_left_out=tuple(lacking))
    return settings
