from __future__ import annotations

from hipport.api import convert_source
from hipport.settings import Settings


def found(source: str, code: str, **settings) -> list[int]:
    """Lines where ``code`` is reported."""
    result = convert_source(source, Settings(**settings))
    return [f.location.line for f in result.findings if f.code == code]


def fixed(source: str, unsafe: bool = True) -> str:
    result = convert_source(source, Settings(unsafe_fixes=unsafe))
    assert not [f for f in result.findings if f.code in ("HP003", "HP004", "HP005")], \
        [f.finding.message for f in result.findings]
    out = result.output.decode("utf-8")
    if "#include" not in source:  # the runtime include is tested elsewhere
        out = out.replace("#include <hip/hip_runtime.h>\n", "", 1)
    return out


def kernel(body: str, params: str = "int* out, const float* x") -> str:
    return f"__global__ void k({params}) {{\n{body}\n}}\n"


def compile_converted(source: str, code: str, tmp_path, oracle):
    """(whether ``code`` was reported, the oracle's compile of the converted file)."""
    from tests.toolchain import compile_hip

    result = convert_source(source, name="k.cu")
    path = tmp_path / "k.hip"
    path.write_bytes(result.output)
    return any(f.code == code for f in result.findings), compile_hip(path, oracle=oracle)
