"""HP413: texture and surface accesses built for MI300 (gfx940-gfx942),
which has no texture units: ROCm 6.4 declares them unavailable there, and
hipport's default targets include gfx942 (found end to end: three
Learn-CUDA-Programming programs with tex2D failed to build)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.hazards.helpers import found
from tests.toolchain import compile_hip, require_hip_oracle

RUNTIME = "#include <cuda_runtime.h>\n"


def kernel(body: str) -> str:
    return RUNTIME + "__global__ void k(cudaTextureObject_t t, cudaSurfaceObject_t s, " \
        f"float* o) {{\n{body}\n}}\n"


ACCESSES = [
    pytest.param(kernel("o[0] = tex2D<float>(t, 0.5f, 0.5f);"), id="tex2D-object"),
    pytest.param(kernel("o[0] = tex1Dfetch<float>(t, 3);"), id="tex1Dfetch"),
    pytest.param(kernel("o[0] = tex3DLod<float>(t, 0.f, 0.f, 0.f, 1.f);"), id="tex3DLod"),
    pytest.param(kernel("float v; surf2Dread(&v, s, 0, 0); o[0] = v;"), id="surf2Dread"),
    pytest.param(kernel("surf2Dwrite(o[0], s, 0, 0);"), id="surf2Dwrite"),
]


@pytest.mark.parametrize("source", ACCESSES)
def test_an_access_built_for_gfx942_is_reported(source: str):
    assert found(source, "HP413") == [3]  # default targets gfx90a;gfx942
    assert found(source, "HP413", offload_arch=("gfx940",)) == [3]


@pytest.mark.parametrize("source", ACCESSES)
def test_gpus_with_texture_units_are_not_reported(source: str):
    assert found(source, "HP413", offload_arch=("gfx90a",)) == []
    assert found(source, "HP413", offload_arch=("gfx90a:xnack+", "gfx1100")) == []


LOOK_ALIKES = [
    # the host-side objects and a name that only starts like a fetch
    pytest.param(RUNTIME + "void f(cudaTextureObject_t* t, cudaResourceDesc* r, "
                 "cudaTextureDesc* d) {\n  cudaCreateTextureObject(t, r, d, nullptr);\n}\n",
                 id="host-texture-object"),
    pytest.param(kernel("o[0] = tex2D_bilinear(o, 0.5f);"), id="own-function"),
    pytest.param(kernel("o[0] = sampler.tex2D(0.5f, 0.5f);"), id="member-call"),
    pytest.param(kernel("// tex2D<float>(t, 0.5f, 0.5f)\no[0] = 1;"), id="comment"),
]


@pytest.mark.parametrize("source", LOOK_ALIKES)
def test_look_alikes_are_not_reported(source: str):
    assert found(source, "HP413") == []


def test_the_message_names_the_gpu_and_the_way_out():
    result = convert_source(kernel("o[0] = tex2D<float>(t, 0.5f, 0.5f);"))
    (finding,) = [f for f in result.findings if f.code == "HP413"]
    message = finding.finding.message
    assert "`tex2D`" in message and "gfx942 lacks" in message
    assert "build for gfx90a only" in message
    only = convert_source(kernel("o[0] = tex2D<float>(t, 0.5f, 0.5f);"),
                          Settings(offload_arch=("gfx942",)))
    (finding,) = [f for f in only.findings if f.code == "HP413"]
    assert "a GPU with texture units" in finding.finding.message


def _compiles(arch: str, tmp_path, oracle) -> tuple[bool, bool, str]:
    """(reported, compiled, stderr) for a tex2D kernel built for gfx90a and ``arch``."""
    result = convert_source(kernel("o[0] = tex2D<float>(t, 0.5f, 0.5f);"),
                            Settings(offload_arch=tuple(dict.fromkeys(("gfx90a", arch)))))
    path = tmp_path / "image.hip"
    path.write_bytes(result.output)
    extra = [f"--offload-arch={arch}"] if arch != "gfx90a" else []  # compile_hip: gfx90a
    proc = compile_hip(path, extra_args=extra, oracle=oracle)
    reported = any(f.code == "HP413" for f in result.findings)
    return reported, proc.returncode == 0, proc.stderr


@pytest.mark.slow
def test_gfx90a_has_texture_units_on_both_oracles(tmp_path, hip_oracle):
    reported, compiled, stderr = _compiles("gfx90a", tmp_path, hip_oracle)
    assert not reported and compiled, stderr[-2000:]


@pytest.mark.slow
def test_gfx942_has_none_and_rocm_says_so(tmp_path):
    oracle = require_hip_oracle("rocm-6.4")  # HIP 5.2 does not know gfx942
    reported, compiled, stderr = _compiles("gfx942", tmp_path, oracle)
    assert reported and not compiled
    assert "The image/texture API not supported on the device" in stderr
