"""What a tree's build files say that the conversion of its sources needs,
read before any file is converted (pipeline.plan), as hipport.gpus decides
the GPU targets:

* whether the build compiles relocatable device code (HP320):
  `CUDA_SEPARABLE_COMPILATION ON` (the property or its `CMAKE_` variable),
  nvcc's `-rdc=true` / `--relocatable-device-code=true` / `-dc`, or HIP's
  `-fgpu-rdc`;
* whether it makes device code files with nvcc (`-ptx`, `-cubin`,
  `-fatbin`), which the conversion turns into HIP code objects of the same
  name (HP617), for a program that loads them (HP618).

A mention in a comment counts too: the cost of a false "yes" is a `static`
dropped from a variable the host names, which compiles, or a milder note."""
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
_CODE_OBJECTS = re.compile(rb"(?<![\w-])--?(?:ptx|cubin|fatbin|genco)(?![\w=-])")


def says_rdc(data: bytes) -> bool:
    return _RDC.search(data) is not None


def makes_code_objects(data: bytes) -> bool:
    return _CODE_OBJECTS.search(data) is not None


def build_facts_for(settings: Settings, build_files: Iterable[Path]) -> Settings:
    """``settings`` with what the build files say."""
    files = list(build_files)
    if not settings.relocatable_device_code and any_file(files, says_rdc):
        settings = replace(settings, relocatable_device_code=True)
    if not settings.code_objects_built and any_file(files, makes_code_objects):
        settings = replace(settings, code_objects_built=True)
    return settings
