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

# Test files (or functions, ``path::name``) whose ``hip_oracle`` tests run on
# ROCm 6.4 and 7.2 but not on HIP 5.2 (docs/toolchains.md, "Suite time"):
# - the files build whole converted projects (configure, compile, link), the
#   suite's slowest tests, and what they check of the build files does not
#   depend on the release;
# - the functions compile trees converted for the default target, ROCm 7.2,
#   which is no promise for 5.2 (the golden cases converted for 5.2 compile
#   there, tests/cases_test.py).
# HIP 5.2 still compiles every polyfill use (rewrite context) for its own
# target, every catalogue name, the hazards, and verify runs with it.
HIP_52_LEFT_OUT = frozenset({
    "tests/buildfiles/build_examples_test.py",
    "tests/buildfiles/projects_build_test.py",
    "tests/buildfiles/compat_build_test.py",
    "tests/buildfiles/rdc_build_test.py",
    "tests/buildfiles/device_debug_build_test.py",
    "tests/compat/compile_test.py::test_compat_case_compiles_with_hipcc",
    "tests/compat/compile_test.py::test_compat_example_compiles_with_hipcc",
})

KNOWN_GAPS: dict[str, str] = {
}
