"""The MIOpen code the cuDNN catalogue tells a person to write where no
rewrite is exact (the find step before a convolution, the workspace a
pooling backward pass needs) compiles against MIOpen's headers on ROCm 6.4
and 7.2, as the notes spell it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.table import bundled_table
from tests.toolchain import compile_hip, require_hip_oracle

# The cuDNN calls whose HP901 note is a sequence of MIOpen statements.
SEQUENCES = ("cudnnConvolutionForward", "cudnnConvolutionBackwardData",
             "cudnnConvolutionBackwardFilter", "cudnnPoolingBackward",
             "cudnnGetConvolutionForwardAlgorithm_v7", "cudnnFindConvolutionForwardAlgorithm")
_CODE = re.compile(r"`([^`]+)`")

# The names the notes use, declared as the MIOpen calls take them.
_PROLOGUE = """\
#include <miopen/miopen.h>
miopenStatus_t sequence(miopenHandle_t handle, miopenConvolutionDescriptor_t convDesc,
                        miopenPoolingDescriptor_t poolDesc, miopenTensorDescriptor_t xDesc,
                        miopenTensorDescriptor_t wDesc, miopenTensorDescriptor_t yDesc,
                        miopenTensorDescriptor_t dyDesc, miopenTensorDescriptor_t dxDesc,
                        miopenTensorDescriptor_t dwDesc, const void* x, const void* w,
                        void* y, const void* dy, void* dx, void* dw, void* workSpace,
                        const void* alpha, const void* beta)
{
    size_t size = 0;
    int count = 0;
    miopenConvAlgoPerf_t perf;
    (void)count; (void)perf; (void)size;
"""


def statements(note: str) -> list[str]:
    """The code quoted in ``note``, as statements."""
    return [f"    {code};" for code in _CODE.findall(note)]


def test_every_sequence_note_quotes_miopen_calls():
    table = bundled_table()
    for name in SEQUENCES:
        entry = table.lookup(name)
        assert entry is not None and entry.note is not None, name
        quoted = statements(entry.note)
        assert quoted and all(s.strip().startswith("miopen") for s in quoted), (name, quoted)


@pytest.mark.slow
@pytest.mark.parametrize("oracle", ["rocm-6.4", "rocm-7.2"])
def test_sequences_compile_against_miopen(oracle: str, tmp_path: Path):
    table = bundled_table()
    blocks = []
    for name in SEQUENCES:
        note = table.lookup(name).note  # type: ignore[union-attr]
        blocks.append("    {\n" + "\n".join(statements(note or "")) + "\n    }")
    source = tmp_path / "sequences.hip.cpp"
    source.write_text(_PROLOGUE + "\n".join(blocks) + "\n    return miopenStatusSuccess;\n}\n")
    proc = compile_hip(source, oracle=require_hip_oracle(oracle))
    assert proc.returncode == 0, proc.stderr[-3000:]
