"""`case` labels a HIP switch cannot have (issue 26, class 3): a CUDA
enumerator with no HIP counterpart on the target (an error-string helper's
`case CUFFT_NVRTC_FAILURE:`), or one whose HIP value a label above already
has.  Kept, every program including the helper failed to compile; the label
goes, with the statements only it reaches (HP512)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.compat.strategy import CompatStrategy
from hipport.settings import Settings


def convert(source: str, **settings):
    result = convert_source(source, Settings(**settings))
    return result.output.decode(), result.findings


def switch(cases: str, prefix: str = "") -> str:
    return (f"#include <cufft.h>\n{prefix}const char* name(cufftResult e)\n{{\n"
            f"    switch (e) {{\n{cases}    }}\n    return \"<unknown>\";\n}}\n")


def hip_switch(cases: str, prefix: str = "") -> str:
    return (f"#include <hipfft/hipfft.h>\n{prefix}const char* name(hipfftResult e)\n{{\n"
            f"    switch (e) {{\n{cases}    }}\n    return \"<unknown>\";\n}}\n")


REWRITES = [
    pytest.param(
        '    case CUFFT_SUCCESS:\n        return "CUFFT_SUCCESS";\n'
        '    case CUFFT_NVRTC_FAILURE:\n        return "CUFFT_NVRTC_FAILURE";\n'
        '    case CUFFT_NVJITLINK_FAILURE: return "CUFFT_NVJITLINK_FAILURE";\n'
        '    case CUFFT_NOT_SUPPORTED:\n        return "CUFFT_NOT_SUPPORTED";\n',
        '    case HIPFFT_SUCCESS:\n        return "CUFFT_SUCCESS";\n'
        '    case HIPFFT_NOT_SUPPORTED:\n        return "CUFFT_NOT_SUPPORTED";\n',
        2, id="own-statements-go-with-the-label"),
    pytest.param(
        '    case CUFFT_MISSING_DEPENDENCY:\n        return "dep";\n'
        '    case CUFFT_SUCCESS: return "ok";\n',
        '    case HIPFFT_SUCCESS: return "ok";\n',
        1, id="first-label-of-the-switch"),
    pytest.param(
        '    case CUFFT_INTERNAL_ERROR:\n    case CUFFT_NVSHMEM_FAILURE:\n'
        '        return "internal";\n',
        '    case HIPFFT_INTERNAL_ERROR:\n        return "internal";\n',
        1, id="shared-statements-stay"),
    pytest.param(
        '    case CUFFT_NVSHMEM_FAILURE:\n    case CUFFT_INTERNAL_ERROR:\n'
        '        return "internal";\n',
        '    case HIPFFT_INTERNAL_ERROR:\n        return "internal";\n',
        1, id="label-before-a-shared-group"),
    pytest.param(
        '    case CUFFT_EXEC_FAILED:\n        count();\n'
        '    case CUFFT_NVRTC_FAILURE:\n        return "failed";\n',
        '    case HIPFFT_EXEC_FAILED:\n        count();\n'
        '        return "failed";\n',
        1, id="fall-through-into-it-keeps-the-statements"),
    pytest.param(
        '    case CUFFT_EXEC_FAILED: count(); case CUFFT_NVRTC_FAILURE: return "failed";\n',
        '    case HIPFFT_EXEC_FAILED: count(); return "failed";\n',
        1, id="fall-through-on-one-line"),
    pytest.param(
        '    case CUFFT_EXEC_FAILED: { count(); break; }\n'
        '    case CUFFT_NVRTC_FAILURE: { return "nvrtc"; }  // CUDA 12\n'
        '    default: break;\n',
        '    case HIPFFT_EXEC_FAILED: { count(); break; }\n'
        '    default: break;\n',
        1, id="braced-statements-and-a-trailing-comment"),
    pytest.param(
        '    case CUFFT_LICENSE_ERROR:\n    case CUFFT_NVRTC_FAILURE:\n'
        '        return "gone";\n    case CUFFT_SUCCESS: return "ok";\n',
        '    case HIPFFT_SUCCESS: return "ok";\n',
        2, id="a-group-of-removed-labels-goes-whole"),
]


@pytest.mark.parametrize("cases, expected, removed", REWRITES)
def test_labels_without_a_hip_value_are_removed(cases, expected, removed):
    out, findings = convert(switch(cases, "void count();\n"))
    assert out == hip_switch(expected, "void count();\n")
    assert len([f for f in findings if f.code == "HP512" and f.applied]) == removed
    # A label that is gone is no unconverted reference any more.
    assert not [f for f in findings if f.code == "HP901"]


def test_the_finding_names_the_enumerator_and_what_stays():
    _, findings = convert(switch('    case CUFFT_EXEC_FAILED: count();\n'
                                 '    case CUFFT_NVRTC_FAILURE: return "failed";\n',
                                 "void count();\n"))
    (finding,) = [f for f in findings if f.code == "HP512"]
    message = finding.finding.message
    assert "`CUFFT_NVRTC_FAILURE` has no HIP counterpart" in message
    assert "its statements stay" in message and "falls through" in message


LOOKALIKES = [
    pytest.param("int f(int r) { return r == CUFFT_NVRTC_FAILURE; }\n",
                 id="compared-not-a-label"),
    pytest.param("enum { MY_NVRTC_FAILURE = 9 };\n"
                 "int f(int r) { switch (r) { case MY_NVRTC_FAILURE: return 1; } return 0; }\n",
                 id="the-users-own-enumerator"),
    pytest.param("int f(int r) {\n  switch (r) {\n  case CUFFT_NVRTC_FAILURE + 1: return 1;\n  }\n"
                 "  return 0;\n}\n", id="an-expression-of-it"),
]


@pytest.mark.parametrize("source", LOOKALIKES)
def test_other_uses_stay(source):
    out, findings = convert(source)
    assert out == source
    assert not [f for f in findings if f.code == "HP512"]


SOLVER = ("const char* s(cusolverStatus_t e) {\n  switch (e) {\n"
          "  case CUSOLVER_STATUS_INTERNAL_ERROR: return \"internal\";\n"
          "  case CUSOLVER_STATUS_ZERO_PIVOT: return \"pivot\";\n"
          "  case CUSOLVER_STATUS_IRS_INTERNAL_ERROR: return \"irs\";\n"
          "  }\n  return \"?\";\n}\n")


def test_what_the_target_lacks_is_removed_for_that_target_only():
    # hipSOLVER has HIPSOLVER_STATUS_ZERO_PIVOT in ROCm 6.4, not in 5.2.
    out64, _ = convert(SOLVER)
    assert "case HIPSOLVER_STATUS_ZERO_PIVOT: return \"pivot\";" in out64
    out52, findings = convert(SOLVER, rocm_version=(5, 2))
    assert "pivot" not in out52 and "CUSOLVER_STATUS_ZERO_PIVOT" not in out52
    (pivot,) = [f for f in findings if f.code == "HP512" and "ZERO_PIVOT" in f.finding.message]
    assert "needs ROCm 6.4 (target 5.2" in pivot.finding.message


def test_a_label_whose_hip_value_a_label_above_has_is_removed():
    # CUSOLVER_STATUS_IRS_INTERNAL_ERROR and CUSOLVER_STATUS_INTERNAL_ERROR are both
    # HIPSOLVER_STATUS_INTERNAL_ERROR: two labels of one value do not compile.
    out, findings = convert(SOLVER)
    assert out.count("case HIPSOLVER_STATUS_INTERNAL_ERROR:") == 1 and "irs" not in out
    (dup,) = [f for f in findings if f.code == "HP512" and "IRS" in f.finding.message]
    assert "`case CUSOLVER_STATUS_INTERNAL_ERROR:` above" in dup.finding.message


def test_nested_switches_are_separate():
    source = ("int f(cusolverStatus_t a, cusolverStatus_t b) {\n  switch (a) {\n"
              "  case CUSOLVER_STATUS_INTERNAL_ERROR:\n    switch (b) {\n"
              "    case CUSOLVER_STATUS_IRS_INTERNAL_ERROR: return 2;\n    }\n"
              "    return 1;\n  }\n  return 0;\n}\n")
    out, findings = convert(source)
    assert out.count("HIPSOLVER_STATUS_INTERNAL_ERROR") == 2
    assert not [f for f in findings if f.code == "HP512"]


def test_a_label_inside_a_conditional_block_keeps_statements_a_fall_through_may_reach():
    source = switch('    case CUFFT_EXEC_FAILED: count();\n#if CUDA_VERSION >= 12000\n'
                    '    case CUFFT_NVRTC_FAILURE: return "failed";\n#endif\n'
                    '    default: break;\n', "void count();\n")
    out, _ = convert(source)
    assert 'return "failed";' in out and "CUFFT_NVRTC_FAILURE" not in out


def test_the_compat_strategy_removes_nothing():
    source = switch('    case CUFFT_NVRTC_FAILURE: return "x";\n')
    result = convert_source(source, Settings(), strategy=CompatStrategy())
    out, findings = result.output.decode(), result.findings
    assert "case CUFFT_NVRTC_FAILURE" in out
    (finding,) = [f for f in findings if f.code == "HP512"]
    # The fix is offered, not applied: the message does not say it was.
    assert not finding.applied and "removed" not in finding.finding.message
