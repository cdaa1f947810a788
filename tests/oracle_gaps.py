"""Compile tests that fail on an oracle because hipport's *output* is wrong
for that ROCm, not because the test is: known gaps, each naming the issue
that fixes it.  tests/conftest.py marks each one ``xfail(strict=True)``, so
the day a fix lands the test passes, the run fails, and the line goes.

The list is by full test id (``path::name[params]``); a test id that no
longer exists fails ``tests/oracle_gaps_test.py``."""
from __future__ import annotations

# ROCm 7.2 (Debian experimental, issue 33): hipBLAS 3 dropped the `_v2`
# API, ROCm 7 declares what the polyfill header defines (`__syncwarp`,
# `__reduce_*_sync`, warp-sync builtins on by default), `hip_runtime.h`
# stopped including <stdio.h>/<string.h>/<assert.h>, `warpSize` is no longer
# constexpr, and some signatures changed.
_ISSUE_33 = "issue 33: hipport's output is not yet right for ROCm 7.2 ({})"

# Test files whose ``hip_oracle`` tests run on ROCm 6.4 and 7.2 but not on
# HIP 5.2: they build whole converted projects (configure, compile, link),
# the suite's slowest tests, and what they check of the build files does not
# depend on the release; with a third oracle the suite would grow by half
# (docs/toolchains.md, "Suite time").  HIP 5.2 still compiles every polyfill,
# catalogue name, compat case, example and hazard, and verify runs with it.
HIP_52_LEFT_OUT = frozenset({
    "tests/buildfiles/build_examples_test.py",
    "tests/buildfiles/projects_build_test.py",
    "tests/buildfiles/compat_build_test.py",
    "tests/buildfiles/rdc_build_test.py",
    "tests/buildfiles/device_debug_build_test.py",
})

# Issue 33 §3: every fallback guarded by what the target ROCm declares.
_POLYFILLS = "tests/polyfills/compile_test.py::"
_THROUGH = _POLYFILLS + "test_the_converted_use_compiles_through_the_header[rocm-7.2-"
_REDEFINED = "the header redefines what 7.2 declares ({})"
_POLYFILL_GAPS_72 = {
    _THROUGH + "stream-access-policy-rewrite]": _REDEFINED.format("hipStreamAttrValue & co."),
    _THROUGH + "stream-access-policy-compat]": _REDEFINED.format("hipStreamAttrValue & co."),
    _THROUGH + "mem-location-compat]": "7.2's hipMemLocationType gains host values and "
                                       "hipMemPrefetchAsync_v2 exists: the fallback's guard "
                                       "does not describe 7.2",
    _THROUGH + "mem-location-numa-compat]": "7.2's hipMemLocationType gains host values: the "
                                            "fallback's guard does not describe 7.2",
    _THROUGH + "reduce-sync-rewrite]": _REDEFINED.format("__reduce_*_sync: ambiguous calls"),
    _THROUGH + "reduce-sync-compat]": _REDEFINED.format("__reduce_*_sync: ambiguous calls"),
    _THROUGH + "match-sync-rewrite]": "7.x enables the warp-sync builtins by default: "
                                      "__match_any_sync is ambiguous",
    _THROUGH + "match-sync-compat]": "7.x enables the warp-sync builtins by default: "
                                     "__match_any_sync is ambiguous",
    _POLYFILLS + "test_without_the_header_the_converted_use_does_not_compile"
                 "[rocm-7.2-stream-access-policy]": "7.2 has the stream-attribute API: the "
                                                    "fallback's rocm.real must say 7.2",
    _POLYFILLS + "test_the_device_code_does_what_the_fallback_says[rocm-7.2-syncwarp]":
        _REDEFINED.format("__syncwarp(): ambiguous calls"),
    _POLYFILLS + "test_every_fallback_together_compiles[rocm-7.2]":
        _REDEFINED.format("__syncwarp, __reduce_*_sync, stream attributes"),
    "tests/polyfills/wiring_test.py::test_the_rerun_subfolder_and_each_project_compile"
    "[rocm-7.2]": _REDEFINED.format("__reduce_max_sync: ambiguous calls"),
    _POLYFILLS + "test_rocms_own_warp_sync_builtins_take_over_when_enabled[rocm-7.2]":
        "HIP_ENABLE_WARP_SYNC_BUILTINS no longer describes 7.x, which enables them by default",
}

KNOWN_GAPS: dict[str, str] = {
    **{test: f"issue 33 §3: the polyfill header is not yet right for ROCm 7.2 ({why})"
       for test, why in _POLYFILL_GAPS_72.items()},
    "tests/catalogue/compile_test.py::test_mapped_names_compile[rocm-7.2-hip]":
        _ISSUE_33.format("HIP_MEMSET_NODE_PARAMS is gone from 7.2"),
    "tests/polyfills/compile_test.py::test_the_converted_use_compiles_through_the_header"
    "[rocm-7.2-syncwarp-rewrite]":
        _ISSUE_33.format("7.2 declares __syncwarp(): the header's makes the call ambiguous"),
    "tests/polyfills/compile_test.py::test_the_converted_use_compiles_through_the_header"
    "[rocm-7.2-syncwarp-compat]":
        _ISSUE_33.format("7.2 declares __syncwarp(): the header's makes the call ambiguous"),
    "tests/buildfiles/rocm72_project_test.py::test_the_issue_33_project_builds"
    "[rocm-7.2-default]":
        "issue 33 §3: the polyfill header is not yet right for ROCm 7.2 (it redefines "
        "__reduce_*_sync and makes __syncwarp and __match_any_sync ambiguous in warps.cu; the "
        "project without its warp part builds: [rocm-7.2-default-no-warps])",
    "tests/report/verify_test.py::test_a_real_compile_with_each_oracle[rocm-7.2]":
        _ISSUE_33.format("7.2 declares __syncwarp, which the catalogue calls unsupported, so "
                         "the unit the test expects to fail compiles"),
}
