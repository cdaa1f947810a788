"""Whether a tree's build compiles relocatable device code: a tree-wide fact
the conversion of sources needs (HP320), read from the build files before
any file is converted, as hipport.gpus decides the GPU targets.

Relocatable device code is on where a build file says
`CUDA_SEPARABLE_COMPILATION ON` (the property or its `CMAKE_` variable), or
passes nvcc `-rdc=true` / `--relocatable-device-code=true` / `-dc`, or
HIP's `-fgpu-rdc`.  A mention in a comment counts too: the cost of a false
"on" is a `static` dropped from a variable the host names, which compiles."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Iterable

from hipport.settings import Settings
from hipport.tree_facts import any_file

_RDC = re.compile(
    rb"CUDA_SEPARABLE_COMPILATION[\s\"]+(?:ON|TRUE|YES|Y|1)\b"
    rb"|(?<![\w-])(?:--?rdc|--relocatable-device-code)(?:=|\s+)\"?true\b"
    rb"|(?<![\w-])(?:-fgpu-rdc|-dc|--device-c)(?![\w=-])", re.IGNORECASE)


def says_rdc(data: bytes) -> bool:
    return _RDC.search(data) is not None


def relocatable_for(settings: Settings, build_files: Iterable[Path]) -> Settings:
    """``settings`` with ``relocatable_device_code`` on when a build file
    turns relocatable device code on."""
    if settings.relocatable_device_code or not any_file(build_files, says_rdc):
        return settings
    return replace(settings, relocatable_device_code=True)
