"""Turn CUDA names (+ HIPIFY facts) into catalogue entries, checking every
proposed HIP name against the scanned HIP headers."""
from __future__ import annotations

import re
from typing import Any

from .curated import CUDNN_SAME_SHAPE, CURATED, HEADERS
from .hip_headers import NOT_IN_DEBIAN, HipLibraryHeaders, parse_version
from .hipify_tables import HipifyFact
from .libraries import HIP_LIBRARY, prefix_rule

Entry = dict[str, Any]

_KEY_ORDER = ("cuda", "hip", "kind", "status", "note", "applicability", "rule", "library",
              "cuda_version", "rocm_version")


def ordered(entry: Entry) -> Entry:
    return {k: entry[k] for k in _KEY_ORDER if k in entry}


def _vstr(v: tuple[int, ...] | None) -> str:
    return ".".join(str(x) for x in v) if v else "?"


def _kind_from_fact(fact: HipifyFact, library: str) -> str:
    sec = fact.section.lower()
    name = fact.cuda
    if library == "device":
        return "type" if "type" in sec else "device_function"
    if "type" in sec or "data" in sec:
        if re.fullmatch(r"[A-Z0-9_]+", name):
            return "enum"
        return "type"
    if name.startswith("__") or re.fullmatch(r"[A-Z0-9_]+", name):
        return "macro"
    return "function"


def _versions(fact: HipifyFact | None) -> tuple[dict[str, str], dict[str, str]]:
    cuda: dict[str, str] = {}
    rocm: dict[str, str] = {}
    if fact is None:
        return cuda, rocm
    for key, val in (("added", fact.cuda_added), ("deprecated", fact.cuda_deprecated),
                     ("removed", fact.cuda_removed)):
        if val:
            cuda[key] = val
    return cuda, rocm


def first_seen(hip_lib: str, name: str, per_root: dict[str, list[HipLibraryHeaders]] | None
               ) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """(oldest version, first version declaring ``name``) when the oldest
    installed headers of ``hip_lib`` lack it; else None."""
    scans = (per_root or {}).get(hip_lib, [])
    if len(scans) < 2 or scans[0].has(name) or scans[0].version is None:
        return None
    for s in scans[1:]:
        if s.has(name) and s.version is not None and s.version > scans[0].version:
            return scans[0].version, s.version
    return None


def propose(name: str, library: str, kind: str | None, fact: HipifyFact | None,
            hip: dict[str, HipLibraryHeaders],
            per_root: dict[str, list[HipLibraryHeaders]] | None = None) -> Entry:
    """Build the entry for one CUDA name."""
    hip_lib_name = HIP_LIBRARY[library]
    lib = hip.get(hip_lib_name)
    if kind is None:
        kind = _kind_from_fact(fact, library) if fact else "function"
    entry: Entry = {"cuda": name, "kind": kind}
    cuda_v, _ = _versions(fact)

    curated = CURATED.get(name)
    if curated is not None:
        entry.update(curated)
        if cuda_v:
            entry["cuda_version"] = cuda_v
        return ordered(entry)

    candidate = fact.hip if (fact and fact.hip) else prefix_rule(library, name)
    if library == "cudnn" and not (fact and fact.hip):
        candidate = None  # MIOpen names never follow from a prefix rule
    if library == "nvtx":
        candidate = None  # only the curated roctx names are known equivalents
    if cuda_v:
        entry["cuda_version"] = cuda_v
    removed = bool(fact and fact.cuda_removed)

    def unsupported(note: str) -> Entry:
        entry["status"] = "removed" if removed else "unsupported"
        entry["note"] = note
        return ordered(entry)

    if candidate is None:
        if library == "cudnn":
            return unsupported("no MIOpen equivalent: MIOpen uses a different descriptor and "
                               "algorithm model; rewrite this part with the miopen* API")
        if library == "nvtx":
            return unsupported("no roctx equivalent; roctx offers roctxMarkA, roctxRangePushA/"
                               "Pop and roctxRangeStartA/Stop only: drop or rewrite")
        return unsupported("no HIP equivalent known")

    if hip_lib_name in NOT_IN_DEBIAN:
        if not (fact and fact.hip):
            return unsupported(f"no known {hip_lib_name} equivalent (the {hip_lib_name} headers "
                               "are not packaged in Debian, so no name is guessed)")
        entry["hip"] = candidate
        reason = f"not header-verified ({hip_lib_name} is not packaged in Debian)"
        if fact and fact.hip_added:
            entry["rocm_version"] = {"added": fact.hip_added}
        if library == "cudnn":
            if kind == "function" and name not in CUDNN_SAME_SHAPE:
                del entry["hip"]
                entry.pop("rocm_version", None)
                return unsupported(f"closest MIOpen API is {candidate}, but its arguments "
                                   f"differ: rewrite the call by hand ({reason})")
            entry["applicability"] = "unsafe"
            entry["note"] = (f"MIOpen counterpart per HIPIFY; {reason}; MIOpen's model "
                             "differs from cuDNN's, review the surrounding code")
        else:
            entry["note"] = reason
        return ordered(entry)

    if lib is not None and lib.has(candidate):
        entry["hip"] = candidate
        if fact and fact.hip_added:
            entry["rocm_version"] = {"added": fact.hip_added}
        first = first_seen(hip_lib_name, candidate, per_root)
        if first is not None:
            added = entry.get("rocm_version", {}).get("added")
            if added is None or parse_version(added)[:2] < first[1]:
                entry["rocm_version"] = {"added": _vstr(first[1])}
            entry["note"] = (f"not declared in the ROCm {_vstr(first[0])} headers checked; "
                             f"present in ROCm {_vstr(first[1])}")
        if fact and fact.hip_deprecated:
            entry["status"] = "deprecated"
            entry.setdefault("rocm_version", {})["deprecated"] = fact.hip_deprecated
            entry["note"] = f"{candidate} is deprecated since ROCm {fact.hip_deprecated}"
        if fact and fact.experimental:
            entry["note"] = f"{candidate} is experimental in ROCm"
        if removed:
            entry["note"] = (f"removed from CUDA {fact.cuda_removed}; " if fact else "") + \
                entry.get("note", "still converted for old code")
        return ordered(entry)

    installed = lib.version if lib is not None else None
    if fact and fact.hip and fact.hip_added and installed is not None \
            and parse_version(fact.hip_added)[:2] > installed:
        entry["hip"] = candidate
        entry["rocm_version"] = {"added": fact.hip_added}
        entry["note"] = (f"needs ROCm {fact.hip_added} or newer (not in the ROCm "
                         f"{_vstr(installed)} headers checked)")
        return ordered(entry)

    if fact and fact.hip:
        return unsupported(f"HIPIFY names {candidate} (ROCm {fact.hip_added or '?'}), but it "
                           f"is not declared in the {hip_lib_name} {_vstr(installed)} headers "
                           f"checked; no verified equivalent")
    return unsupported("no HIP equivalent known")


def propose_header(header: str, hip: dict[str, HipLibraryHeaders],
                   hip_header_paths: set[str],
                   header_first_seen: dict[str, tuple[tuple[int, int], tuple[int, int]]]
                   | None = None) -> Entry:
    entry: Entry = {"cuda": header, "kind": "header"}
    if header.startswith("thrust/"):
        entry["library"] = "thrust"
        if header in hip_header_paths:
            entry["hip"] = header
            entry["note"] = "rocThrust provides the same header and keeps namespace thrust"
        else:
            entry["status"] = "unsupported"
            entry["note"] = "rocThrust does not ship this header"
        return ordered(entry)
    mapped = HEADERS.get(header)
    if mapped is None:
        lib = _header_library(header)
        if lib:
            entry["library"] = lib
        entry["status"] = "unsupported"
        entry["note"] = "no HIP counterpart header; remove the include or include the HIP " \
                        "header that declares the replacement API"
        return ordered(entry)
    hip_header, library = mapped
    entry["hip"] = hip_header
    entry["library"] = library
    hip_lib = HIP_LIBRARY[library]
    if hip_lib in NOT_IN_DEBIAN:
        entry["note"] = f"not header-verified ({hip_lib} is not packaged in Debian)"
    elif header_first_seen is not None and hip_header in header_first_seen:
        old, new = header_first_seen[hip_header]
        entry["rocm_version"] = {"added": _vstr(new)}
        entry["note"] = (f"not in the ROCm {_vstr(old)} headers checked; present in ROCm "
                         f"{_vstr(new)}")
    elif hip_header not in hip_header_paths:
        del entry["hip"]
        entry["status"] = "unsupported"
        entry["note"] = f"{hip_header} is not in the HIP headers checked"
    if header == "cub/cub.cuh":
        entry["note"] = "CUB names move from namespace cub to hipcub"
    return ordered(entry)


def _header_library(header: str) -> str | None:
    base = header.split("/")[-1]
    for prefix, lib in (("cublasLt", "cublaslt"), ("cublas", "cublas"), ("curand", "curand"),
                        ("cufft", "cufft"), ("cusparse", "cusparse"), ("cusolver", "cusolver"),
                        ("cudnn", "cudnn"), ("nccl", "nccl"), ("nvrtc", "nvrtc"),
                        ("nvToolsExt", "nvtx"), ("nvtx", "nvtx")):
        if base.startswith(prefix):
            return lib
    if header.startswith("cub/"):
        return "cub"
    if header.startswith("cooperative_groups"):
        return "cooperative_groups"
    return None


# --- where an entry lives ---------------------------------------------------------

_RUNTIME_FN_AREAS = (
    ("graph", r"Graph(?!ics)"), ("interop", r"Graphics|GL|VDPAU|EGL|Egl|D3D|External"),
    ("stream", r"Stream"), ("event", r"Event"),
    ("texture", r"Texture|Surface|Tex|Surf|ChannelDesc|MipmappedArray|Array"),
    ("memory", r"Mem|Malloc|Free|Host|Pointer|Managed|Symbol|Extent|Pitched|Pos\b|Ipc|Peer|Async"),
    ("error", r"Error"),
    ("execution", r"Launch|Func|Occupancy|Kernel|Configure|Setup|Parameter|Double"),
    ("device", r"Device|Thread|Valid|Ctx|Primary|Init|Attribute"),
    ("version", r"Version|Profiler|EntryPoint|Library|Module|Link|Logs"),
)


def target_file(library: str, name: str, kind: str, origin: str | None) -> str:
    if library == "runtime" or library == "driver":
        if kind in ("function",):
            for area, pat in _RUNTIME_FN_AREAS:
                if re.search(pat, name):
                    return f"{library}/{area}.yaml"
            return f"{library}/misc.yaml"
        if kind == "enum":
            if re.match(r"cudaError|CUDA_ERROR_|CUDA_SUCCESS|cudaSuccess", name):
                return f"{library}/error.yaml"
            if re.match(r"cudaDevAttr|CU_DEVICE_ATTRIBUTE_", name):
                return f"{library}/device_attributes.yaml"
            return f"{library}/enums.yaml"
        if kind == "macro":
            return f"{library}/macros.yaml"
        return f"{library}/types.yaml"
    if library == "device":
        o = origin or ""
        if re.match(r"__(shfl|ballot|any|all|activemask|syncwarp|match|reduce_\w+_sync)", name) \
                or name in ("__any", "__all", "__ballot"):
            return "device/warp.yaml"
        if re.match(r"atomic", name):
            return "device/atomics.yaml"
        if re.match(r"__(ld|st)(g|cg|ca|cs|lu|cv|wb|wt)$", name):
            return "device/intrinsics.yaml"
        for area, pat in (("fp16", r"fp16"), ("bf16", r"bf16"), ("fp8", r"fp8|fp6|fp4"),
                          ("atomics", r"atomic"), ("texture", r"texture|surface"),
                          ("vector", r"vector_functions"), ("constants", r"math_constants"),
                          ("math", r"math_functions|double_functions"),
                          ("intrinsics", r"intrinsics|device_functions|sm_\d+_rt")):
            if re.search(pat, o):
                return f"device/{area}.yaml"
        if re.search(r"atomic", name, re.I):
            return "device/atomics.yaml"
        if re.search(r"half|bfloat|__h|fp8", name):
            return "device/fp16.yaml"
        if kind == "macro" or name in ("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"):
            return "device/builtins.yaml"
        return "device/intrinsics.yaml"
    if library == "cooperative_groups":
        return "device/cooperative_groups.yaml"
    if library == "headers":
        return "headers.yaml"
    return f"libraries/{library}.yaml"
