"""HP503: `cudaDeviceProp` fields that `hipDeviceProp_t` lacks in the target
release (`--rocm-version`; ROCm 6.4 has most of those 5.2 and 5.7 lack) or
that mean something else on AMD GPUs."""
from __future__ import annotations

from typing import Iterator

from hipport.edits import Applicability
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, replace, text
from hipport.table.versions import Release, releases_lacking

# cudaDeviceProp (CUDA 13) minus hipDeviceProp_t (hip_runtime_api.h): the
# fields ROCm 6.4 has and 5.2 and 5.7 lack, and those no release checked has.
FROM_64: frozenset[str] = frozenset({
    "uuid", "luid", "luidDeviceNodeMask", "maxTexture1DMipmap", "maxTexture2DMipmap",
    "maxTexture2DLinear", "maxTexture2DGather", "maxTexture3DAlt", "maxTextureCubemap",
    "maxTexture1DLayered", "maxTexture2DLayered", "maxTextureCubemapLayered", "maxSurface1D",
    "maxSurface2D", "maxSurface3D", "maxSurface1DLayered", "maxSurface2DLayered",
    "maxSurfaceCubemap", "maxSurfaceCubemapLayered", "surfaceAlignment", "asyncEngineCount",
    "unifiedAddressing", "persistingL2CacheMaxSize", "streamPrioritiesSupported",
    "globalL1CacheSupported", "localL1CacheSupported", "regsPerMultiprocessor",
    "multiGpuBoardGroupID", "hostNativeAtomicSupported", "computePreemptionSupported",
    "canUseHostPointerForRegisteredMem", "sharedMemPerBlockOptin", "maxBlocksPerMultiProcessor",
    "accessPolicyMaxWindowSize", "reservedSharedMemPerBlock", "hostRegisterSupported",
    "hostRegisterReadOnlySupported", "timelineSemaphoreInteropSupported",
    "memoryPoolsSupported", "gpuDirectRDMASupported", "gpuDirectRDMAFlushWritesOptions",
    "gpuDirectRDMAWritesOrdering", "memoryPoolSupportedHandleTypes", "ipcEventSupported",
    "clusterLaunch", "unifiedFunctionPointers",
})
MISSING = FROM_64 | frozenset({
    "sparseCudaArraySupported", "deferredMappingCudaArraySupported", "deviceNumaConfig",
    "deviceNumaId", "mpsEnabled", "hostNumaId", "gpuPciDeviceID", "gpuPciSubsystemID",
    "hostNumaMultinodeIpcSupported",
})
_SINCE_64: Release = (6, 4)
# Same quantity, another spelling: renaming is exact.
RENAMED = {"sharedMemPerMultiprocessor": "maxSharedMemoryPerMultiProcessor"}
# Present, but the numbers describe an AMD architecture, not a compute capability.
DIFFERENT = {
    "major": "is the GCN/CDNA major version on AMD, not a compute capability",
    "minor": "is the GCN/CDNA minor version on AMD, not a compute capability",
    "clockRate": "is the shader clock on AMD; device clock64() may tick at another rate",
}
_FIELDS = " ".join(f'"{f}"' for f in sorted(MISSING | set(RENAMED) | set(DIFFERENT)))
# Predicates only on identifiers: a predicate decodes its node's text, and a
# larger node (`struct\x80 cudaDeviceProp`) may hold bytes that are not UTF-8.
_QUERY = query(f"""
(declaration type: [(type_identifier) @type (struct_specifier name: (type_identifier) @type)]
  declarator: (_) @declarator (#eq? @type "cudaDeviceProp"))
(parameter_declaration type: [(type_identifier) @type
                              (struct_specifier name: (type_identifier) @type)]
  declarator: (_) @declarator (#eq? @type "cudaDeviceProp"))
(field_expression argument: (_) @object field: (field_identifier) @field
  (#any-of? @field {_FIELDS})) @use
""")


def _declared_name(declarator_text: str) -> str:
    name = declarator_text.split("=")[0].split("[")[0]
    return name.strip(" *&")


@file_rule("hazard-device-properties", codes=("HP503",))
def device_properties(ctx: Context) -> Iterator[Finding]:
    if b"cudaDeviceProp" not in ctx.data:  # cheap: skip the tree walk
        return
    props: set[str] = set()
    uses = []
    for match in matches(ctx, _QUERY):
        if "type" in match:
            props.update(_declared_name(text(d)) for d in match["declarator"])
        else:
            uses.append(match)
    target = ctx.settings.rocm_version
    for match in uses:
        obj = text(match["object"][0]).lstrip("*(").rstrip(")")
        if obj not in props:
            continue
        field_node, field = match["field"][0], text(match["field"][0])
        use = match["use"][0]
        if field in RENAMED:
            yield hazard("HP503", f"`cudaDeviceProp::{field}` is `{RENAMED[field]}` in HIP",
                         use, (replace(field_node, RENAMED[field]),), Applicability.SAFE,
                         f"Use {RENAMED[field]}")
        elif field in DIFFERENT:
            yield hazard("HP503", f"`cudaDeviceProp::{field}` {DIFFERENT[field]}", use)
        elif field not in FROM_64 or target is None or target < _SINCE_64:
            since = _SINCE_64 if field in FROM_64 else None
            yield hazard("HP503", f"`cudaDeviceProp::{field}` has no field in HIP's "
                         f"hipDeviceProp_t ({releases_lacking(target, since)}); query "
                         "hipDeviceGetAttribute or drop it", use)
