"""Where semantic mode finds its tools: the libclang bindings (PyPI
``libclang``), clang's resource headers, and the CUDA headers.

PyPI's ``libclang`` wheel ships ``libclang.so`` but not clang's resource
headers (``stddef.h``, ``__clang_cuda_runtime_wrapper.h`` ...), without which
no CUDA translation unit parses.  They come from a Debian
``libclang-common-<N>-dev`` package; ``scripts/setup-toolchain.sh`` installs
one.  See docs/semantic-mode.md.
"""
from __future__ import annotations

import glob
import os
import re
import site
import sysconfig
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import ModuleType

from hipport.errors import HipportError

RESOURCE_DIR_ENV = "HIPPORT_CLANG_RESOURCE_DIR"
CUDA_EXTRA_INCLUDES_ENV = "HIPPORT_CUDA_EXTRA_INCLUDES"
_WRAPPER = "__clang_cuda_runtime_wrapper.h"
_RESOURCE_GLOBS = (
    "/usr/lib/llvm-*/lib/clang/*/include/" + _WRAPPER,
    "/usr/lib/clang/*/include/" + _WRAPPER,
    "/usr/local/lib/clang/*/include/" + _WRAPPER,
)
DEFAULT_CUDA_PATH = Path("/usr/local/cuda")


class SemanticSetupError(HipportError):
    """Semantic mode cannot run here (libclang, resource headers or CUDA missing)."""


def load_cindex() -> ModuleType:
    try:
        from clang import cindex  # type: ignore[import-untyped]  # no stubs upstream
    except ImportError as exc:
        raise SemanticSetupError(
            "semantic mode needs the libclang Python package; install it with "
            "`pip install 'hipport[semantic]'`") from exc
    try:
        cindex.conf.lib  # loads libclang.so
    except Exception as exc:  # cindex raises LibclangError, a plain Exception
        raise SemanticSetupError(f"libclang could not be loaded: {exc}") from exc
    module: ModuleType = cindex
    return module


def libclang_major(cindex: ModuleType) -> int:
    # Not among the functions the bindings declare: give it its result type.
    get_version = cindex.conf.lib.clang_getClangVersion
    get_version.argtypes = []
    get_version.restype = cindex._CXString
    text = cindex._CXString.from_result(get_version())
    found = re.search(r"version (\d+)", str(text))
    return int(found.group(1)) if found else 0


def _resource_major(path: Path) -> int:
    found = re.match(r"\d+", path.name)
    return int(found.group(0)) if found else 0


def find_resource_dir(libclang_major: int) -> Path:
    """Clang's resource directory (the one holding ``include/``).

    The same major version as libclang is best; else the newest older one
    (a newer libclang understands older headers); else the oldest newer one.
    """
    override = os.environ.get(RESOURCE_DIR_ENV)
    if override:
        root = Path(override)
        if not (root / "include" / _WRAPPER).is_file():
            raise SemanticSetupError(
                f"{RESOURCE_DIR_ENV}={override} has no include/{_WRAPPER}; point it at a "
                "clang resource directory such as /usr/lib/llvm-18/lib/clang/18")
        return root
    found = sorted({Path(p).parent.parent for pattern in _RESOURCE_GLOBS
                    for p in glob.glob(pattern)}, key=lambda p: (_resource_major(p), str(p)))
    if not found:
        raise SemanticSetupError(
            "clang's resource headers (include/__clang_cuda_runtime_wrapper.h) were not found; "
            "install them with `apt-get install libclang-common-18-dev` (Debian 13) or "
            f"`libclang-common-16-dev` (Debian 12), or set {RESOURCE_DIR_ENV}")
    older = [p for p in found if _resource_major(p) <= libclang_major]
    return older[-1] if older else found[0]


@dataclass(frozen=True)
class CudaHeaders:
    root: Path | None  # passed as --cuda-path when it looks like a toolkit
    include_dirs: tuple[Path, ...]  # every directory whose headers count as CUDA's
    version: tuple[int, int] = (0, 0)  # from CUDA_VERSION in cuda.h


def _site_dirs() -> list[Path]:
    dirs = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    dirs += site.getsitepackages() if hasattr(site, "getsitepackages") else []
    return [Path(d) for d in dict.fromkeys(dirs)]


def wheel_include_dirs() -> list[Path]:
    """Include folders of installed ``nvidia-*`` wheels (CUDA 12 lays them
    out as nvidia/<lib>/include, CUDA 13 as nvidia/cu13/include)."""
    found: list[Path] = []
    for base in _site_dirs():
        found += sorted(p for p in (base / "nvidia").glob("*/include") if p.is_dir())
    return found


def _cuda_version(include_dirs: list[Path]) -> tuple[int, int]:
    for d in include_dirs:
        try:
            text = (d / "cuda.h").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        found = re.search(r"^#define CUDA_VERSION (\d+)", text, re.MULTILINE)
        if found:
            number = int(found.group(1))
            return number // 1000, number % 1000 // 10
    return (0, 0)


def find_cuda(cuda_path: str | Path | None, cuda_includes: tuple[str, ...] = ()) -> CudaHeaders:
    extra = [Path(p) for p in os.environ.get(CUDA_EXTRA_INCLUDES_ENV, "").split(os.pathsep) if p]
    extra += [Path(p) for p in cuda_includes]
    wheels = wheel_include_dirs()
    if cuda_path is not None:
        root = Path(cuda_path)
        if not (root / "include" / "cuda_runtime.h").is_file():
            raise SemanticSetupError(f"--cuda-path {root}: no include/cuda_runtime.h there")
    else:
        root = DEFAULT_CUDA_PATH
        if not (root / "include" / "cuda_runtime.h").is_file():
            runtime = [d for d in wheels if (d / "cuda_runtime.h").is_file()]
            if not runtime:
                raise SemanticSetupError(
                    "no CUDA headers found: install the CUDA toolkit in /usr/local/cuda, "
                    "the nvidia-cuda-runtime wheel, or pass --cuda-path")
            # A wheel is not a toolkit layout (no bin/): include it by hand.
            dirs = list(dict.fromkeys(p.resolve() for p in runtime + wheels + extra if p.is_dir()))
            return CudaHeaders(None, tuple(dirs), _cuda_version(dirs))
    # A runtime wheel's headers would shadow the toolkit's (-isystem comes
    # first): only library-header wheels join a toolkit.
    wheels = [d for d in wheels if not (d / "cuda_runtime.h").is_file()]
    # CUDA 13 keeps thrust, CUB and libcu++ under include/cccl, which nvcc
    # adds to the search path itself.
    dirs = list(dict.fromkeys(p.resolve() for p in [root / "include", root / "include" / "cccl"]
                              + wheels + extra if p.is_dir()))
    return CudaHeaders(root if (root / "bin").is_dir() else None, tuple(dirs),
                       _cuda_version(dirs))


def shim_dir() -> Path:
    """Empty stand-ins for headers CUDA 13 removed but clang <= 19 still
    includes (``texture_fetch_functions.h``); searched last (-idirafter)."""
    return Path(str(resources.files("hipport.parse") / "clang_shims"))
