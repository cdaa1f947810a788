"""HP506, HP508, HP509: CUDA APIs that rename cleanly but behave differently
on ROCm.  The names and what to check are data; the rule only finds uses
(never declarations of the user's own names)."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text
from hipport.table.versions import Release, release_text

_MANAGED = ("HP506", "unified memory on AMD needs XNACK (HSA_XNACK=1 on a GPU that has "
            "it); otherwise managed memory is not migrated on demand and this hint "
            "changes nothing or fails")
_GRAPH = ("HP508", "ROCm's hipGraphInstantiateWithFlags implements only "
          "hipGraphInstantiateFlagAutoFreeOnLaunch; this flag is missing before ROCm 5.7 "
          "and not acted on after")
# The first release declaring the flags other than AutoFreeOnLaunch (5.2's
# hip_runtime_api.h has only that one; 6.4's declares all four, and says its
# hipGraphInstantiateWithFlags "does not support any of flag").
_GRAPH_FLAGS = (5, 7)
_STREAM = ("HP509", "default-stream semantics: HIP's null stream is the legacy blocking "
           "stream unless compiled with -fgpu-default-stream=per-thread")
SEMANTICS: dict[str, tuple[str, str]] = {
    "cudaMallocManaged": _MANAGED,
    "cudaMemAdvise": _MANAGED,
    "cudaMemPrefetchAsync": _MANAGED,
    "cudaStreamAttachMemAsync": _MANAGED,
    "cudaMemRangeGetAttribute": _MANAGED,
    "cudaGraphInstantiateFlagDeviceLaunch": _GRAPH,
    "cudaGraphInstantiateFlagUseNodePriority": _GRAPH,
    "cudaGraphInstantiateFlagUpload": _GRAPH,
    "cudaStreamPerThread": _STREAM,
    "cudaStreamLegacy": _STREAM,
    "CUDA_API_PER_THREAD_DEFAULT_STREAM": _STREAM,
}
_NAMES = " ".join(f'"{n}"' for n in sorted(SEMANTICS))
_QUERY = query(f"((identifier) @name (#any-of? @name {_NAMES}))")
_DECLARING = frozenset({"function_declarator", "init_declarator", "preproc_def",
                        "preproc_function_def", "parameter_declaration", "declaration"})


# A build-level question: asked once per name and file, not at every use.
_ONCE_PER_FILE = frozenset({"HP509"})


@file_rule("hazard-api-semantics", codes=("HP506", "HP508", "HP509"))
def api_semantics(ctx: Context) -> Iterator[Finding]:
    # The front end already found every catalogue name the file uses or
    # defines itself: without one of these, no tree walk.
    present = {r.name for r in ctx.analysis.references} | ctx.analysis.declared
    if present.isdisjoint(SEMANTICS):
        return
    seen: set[str] = set()
    for match in matches(ctx, _QUERY):
        node = match["name"][0]
        parent = node.parent
        if parent is not None and parent.type in _DECLARING and \
                parent.child_by_field_name("declarator" if parent.type != "preproc_def"
                                           else "name") == node:
            continue
        name = text(node)
        code, note = SEMANTICS[name]
        if code in _ONCE_PER_FILE and name in seen:
            continue
        seen.add(name)
        if code == "HP508" and ctx.settings.rocm_version is not None:
            note = _graph_flag(ctx.settings.rocm_version)
        yield hazard(code, f"`{name}`: {note}", node, note=note)


def _graph_flag(target: Release) -> str:
    """HP508 for the target release."""
    if target < _GRAPH_FLAGS:
        return (f"ROCm {release_text(target)}, the target, does not declare this flag "
                f"(ROCm {release_text(_GRAPH_FLAGS)} and later declare it, and their "
                "hipGraphInstantiateWithFlags does not act on it)")
    return (f"ROCm {release_text(target)}, the target, declares this flag, but its "
            "hipGraphInstantiateWithFlags does not act on it")
