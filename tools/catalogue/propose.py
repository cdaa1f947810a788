"""Turn CUDA names (+ HIPIFY facts) into catalogue entries, checking every
proposed HIP name against the scanned HIP headers."""
from __future__ import annotations

import re
from typing import Any

from hipport.table.versions import release_text

from .curated import CUDNN_SAME_SHAPE, CURATED, HEADERS, OLDER_HEADERS
from .evidence import Evidence, Range
from .hip_headers import NOT_PACKAGED
from .hipify_tables import HipifyFact
from .libraries import HIP_LIBRARY, prefix_rule

Entry = dict[str, Any]

_KEY_ORDER = ("cuda", "hip", "kind", "status", "note", "applicability", "rule", "library",
              "cuda_version", "rocm_version", "older")


def ordered(entry: Entry) -> Entry:
    return {k: entry[k] for k in _KEY_ORDER if k in entry}


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


def _cuda_versions(fact: HipifyFact | None) -> dict[str, str]:
    cuda: dict[str, str] = {}
    if fact is None:
        return cuda
    for key, val in (("added", fact.cuda_added), ("deprecated", fact.cuda_deprecated),
                     ("removed", fact.cuda_removed)):
        if val:
            cuda[key] = val
    return cuda


def date(entry: Entry, found: Range, kept: list[str] | None = None) -> Entry:
    """Set ``entry``'s rocm_version, deprecated status and evidence note from
    ``found`` (the HIP name's header evidence); ``kept`` are the other parts
    of its note."""
    versions = found.versions()
    if versions:
        entry["rocm_version"] = versions
    else:
        entry.pop("rocm_version", None)
    if entry.get("status", "supported") in ("supported", "deprecated"):
        if found.deprecated is not None:
            entry["status"] = "deprecated"
        else:
            entry.pop("status", None)
    if found.gate is not None:
        # The output compiles only once the user defines the macro: review.
        entry["applicability"] = "unsafe"
    parts = list(kept or [])
    evidence = found.note(entry["hip"] if entry["kind"] != "header" else None)
    if evidence:
        parts.append(evidence)
    if parts:
        entry["note"] = "; ".join(parts)
    else:
        entry.pop("note", None)
    return ordered(entry)


def propose(name: str, library: str, kind: str | None, fact: HipifyFact | None,
            ev: Evidence) -> Entry:
    """Build the entry for one CUDA name."""
    hip_lib_name = HIP_LIBRARY[library]
    if kind is None:
        kind = _kind_from_fact(fact, library) if fact else "function"
    entry: Entry = {"cuda": name, "kind": kind}
    cuda_v = _cuda_versions(fact)
    if cuda_v:
        entry["cuda_version"] = cuda_v

    curated = CURATED.get(name)
    if curated is not None:
        entry.update(curated)
        if "hip" not in entry or hip_lib_name in NOT_PACKAGED:
            return ordered(entry)
        entry = date(entry, ev.name(hip_lib_name, entry["hip"]),
                     [curated["note"]] if "note" in curated else [])
        if "older" in curated:
            older = dict(curated["older"])
            versions = ev.name(hip_lib_name, older["hip"]).versions()
            older.pop("rocm_version", None)
            if "added" in versions:
                older["rocm_version"] = {"added": versions["added"]}
            entry["older"] = older
        return entry

    candidate = fact.hip if (fact and fact.hip) else prefix_rule(library, name)
    if library == "cudnn" and not (fact and fact.hip):
        candidate = None  # MIOpen names never follow from a prefix rule
    if library == "nvtx":
        candidate = None  # only the curated roctx names are known equivalents
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

    if hip_lib_name in NOT_PACKAGED:
        if not (fact and fact.hip):
            return unsupported(f"no known {hip_lib_name} equivalent (the {hip_lib_name} headers "
                               "are not packaged in Debian, so no name is guessed)")
        entry["hip"] = candidate
        entry["note"] = f"not header-verified ({hip_lib_name} is not packaged in Debian)"
        return ordered(entry)

    found = ev.name(hip_lib_name, candidate)
    if not found.present:
        if fact and fact.hip:
            return unsupported(
                f"HIPIFY names {candidate} (ROCm {fact.hip_added or '?'}), but the ROCm "
                f"{'/'.join(release_text(r) for r in ev.releases)} headers checked do not "
                "declare it; no verified equivalent")
        return unsupported("no HIP equivalent known")
    if library == "cudnn" and kind == "function" and name not in CUDNN_SAME_SHAPE:
        return unsupported(f"closest MIOpen API is {candidate}, but its arguments differ: "
                           "rewrite the call by hand")
    entry["hip"] = candidate
    kept: list[str] = []
    if removed and fact is not None:
        kept.append(f"removed from CUDA {fact.cuda_removed}")
    if library == "cudnn":
        entry["applicability"] = "unsafe"
        kept.append("MIOpen counterpart per HIPIFY; MIOpen's model differs from cuDNN's, "
                    "review the surrounding code")
    if fact and fact.experimental:
        kept.append(f"{candidate} is experimental in ROCm")
    entry = date(entry, found, kept)
    if removed and entry.get("note") == kept[0]:
        entry["note"] += "; still converted for old code"
    return entry


def propose_header(header: str, ev: Evidence) -> Entry:
    entry: Entry = {"cuda": header, "kind": "header"}
    if header.startswith("thrust/"):
        entry["library"] = "thrust"
        found = ev.header("rocthrust", header)
        if found.present:
            entry["hip"] = header
            return date(entry, found,
                        ["rocThrust provides the same header and keeps namespace thrust"])
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
    kept = ["CUB names move from namespace cub to hipcub"] if header == "cub/cub.cuh" else []
    if hip_lib in NOT_PACKAGED:
        entry["note"] = f"not header-verified ({hip_lib} is not packaged in Debian)"
        return ordered(entry)
    found = ev.header(hip_lib, hip_header)
    if not found.present:
        del entry["hip"]
        entry["status"] = "unsupported"
        entry["note"] = f"{hip_header} is not in the HIP headers checked"
        return ordered(entry)
    entry = date(entry, found, kept)
    older = OLDER_HEADERS.get(header)
    if older is not None and "rocm_version" in entry:
        entry["older"] = dict(older)
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
