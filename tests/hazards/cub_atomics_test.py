"""HP415 and HP416 (issue 32): what compiles with CUDA but not with HIP
because of the 64-lane wavefront or an overload HIP already declares.

* hipCUB's warp-transposing BlockLoad/BlockStore need whole wavefronts
  (rocPRIM's static_assert); its BlockReduce and BlockScan take any block.
* A project's own `atomicMax(float*, float)` (CUDA has none) redefines HIP's.
Each hazard is checked against the HIP compilers: reported exactly where
the converted file fails to compile."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.hazards.helpers import compile_converted, found
from tests.toolchain import HipOracle, require_hip_oracle

CUB = "#include <cub/cub.cuh>\n"


def block(primitive: str) -> str:
    return CUB + f"__global__ void k(int* p) {{\n  using P = {primitive};\n}}\n"


@pytest.mark.parametrize("source", [
    pytest.param(block("cub::BlockLoad<int, 96, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>"), id="load-96"),
    pytest.param(block("cub::BlockStore<float, 32, 2, cub::BLOCK_STORE_WARP_TRANSPOSE>"),
                 id="store-32"),
    pytest.param(block("cub::BlockLoad<int, 160, 1, cub::BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED>"),
                 id="load-timesliced-160"),
    pytest.param(block("hipcub::BlockStore<int, 0x60, 4, hipcub::BLOCK_STORE_WARP_TRANSPOSE>"),
                 id="hipcub-hex"),
])
def test_a_warp_transpose_of_a_partial_wavefront_is_reported(source: str):
    assert found(source, "HP415") == [3]


@pytest.mark.parametrize("source", [
    pytest.param(block("cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>"),
                 id="whole-wavefronts"),
    pytest.param(block("cub::BlockLoad<int, 96, 4, cub::BLOCK_LOAD_TRANSPOSE>"),
                 id="transpose-through-shared"),
    pytest.param(block("cub::BlockReduce<float, 96>"), id="reduce-96"),
    pytest.param(block("cub::BlockScan<int, 32>"), id="scan-32"),
    pytest.param(block("cub::BlockLoad<int, THREADS, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>"),
                 id="size-not-a-literal"),
    pytest.param(block("my::BlockLoad<int, 96, 4, my::BLOCK_LOAD_WARP_TRANSPOSE>"),
                 id="not-cub"),
])
def test_block_primitives_hipcub_builds_are_not(source: str):
    assert found(source, "HP415") == []


def test_rdna_wavefronts_of_32_fit_a_block_of_96():
    source = block("cub::BlockLoad<int, 96, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>")
    assert found(source, "HP415", offload_arch=("gfx1100",)) == []
    message = next(f.finding.message for f in convert_source(source).findings
                   if f.code == "HP415")
    assert "block of 128 threads" in message and "`BLOCK_LOAD_TRANSPOSE`" in message


FLOAT_MAX = ("__device__ float atomicMax(float* address, float val)\n{\n"
             "    int* p = (int*)address;\n"
             "    return __int_as_float(::atomicMax(p, __float_as_int(val)));\n}\n")


@pytest.mark.parametrize("source", [
    pytest.param(FLOAT_MAX, id="float-max"),
    pytest.param("__device__ __forceinline__ double atomicMin(double* const a, const double v)"
                 " { return v; }\n", id="double-min-qualified"),
    pytest.param("static __device__ unsigned long atomicAdd(unsigned long* a, unsigned long v)"
                 " { return v; }\n", id="unsigned-long-add"),
    pytest.param("#if defined(__CUDA_ARCH__)\n__device__ float atomicSub(float* a, float v)"
                 " { return v; }\n#endif\n", id="under-a-cuda-condition"),
])
def test_an_overload_hip_declares_too_is_reported(source: str):
    assert len(found(source, "HP416")) == 1


@pytest.mark.parametrize("source", [
    pytest.param("__device__ int atomicMax(int* a, int v);\n", id="cuda-has-it"),
    pytest.param("__device__ float atomicMax(float* a, float v);\n", id="declaration-only"),
    pytest.param("namespace my {\n" + FLOAT_MAX + "}\n", id="in-a-namespace"),
    pytest.param("template <typename T>\n__device__ T atomicMax(T* a, T v) { return v; }\n",
                 id="template"),
    pytest.param("struct S {\n  __device__ float atomicMax(float* a, float v) { return v; }\n};\n",
                 id="member"),
    pytest.param("#ifndef __HIP_PLATFORM_AMD__\n" + FLOAT_MAX + "#endif\n", id="kept-from-hip"),
    pytest.param("__device__ float atomicMaxFloat(float* a, float v) { return v; }\n",
                 id="other-name"),
    pytest.param("__device__ float atomicMax(float** a, float v) { return v; }\n",
                 id="pointer-to-pointer"),
])
def test_other_atomic_definitions_are_not(source: str):
    assert found(source, "HP416") == []


PROGRAM = "#include <cuda_runtime.h>\n{definition}\n__global__ void k(float* p) {{ " \
    "atomicMax(p, 1.0f); }}\n"


@pytest.mark.slow
@pytest.mark.parametrize("source, breaks", [
    pytest.param(FLOAT_MAX, True, id="float-max"),
    pytest.param("#ifndef __HIP_PLATFORM_AMD__\n" + FLOAT_MAX + "#endif\n", False,
                 id="kept-from-hip"),
    pytest.param("namespace my {\n" + FLOAT_MAX + "}\n", False, id="in-a-namespace"),
])
def test_hp416_says_what_the_compiler_says(source: str, breaks: bool, tmp_path,
                                           hip_oracle: HipOracle):
    reported, proc = compile_converted(PROGRAM.format(definition=source), "HP416", tmp_path,
                                       hip_oracle)
    assert (proc.returncode != 0) == breaks, proc.stderr[-2000:]
    assert reported == breaks
    if breaks:
        assert "redefinition of 'atomicMax'" in proc.stderr


KERNEL = CUB + """__global__ void k(int* p)
{{
    using Load = cub::BlockLoad<int, {threads}, 4, cub::{algorithm}>;
    __shared__ typename Load::TempStorage storage;
    int items[4];
    Load(storage).Load(p, items);
    p[threadIdx.x] = items[0] + items[3];
}}
"""


@pytest.mark.slow
@pytest.mark.parametrize("threads, algorithm", [
    (96, "BLOCK_LOAD_WARP_TRANSPOSE"), (128, "BLOCK_LOAD_WARP_TRANSPOSE"),
    (96, "BLOCK_LOAD_TRANSPOSE"),
])
def test_hp415_says_what_the_compiler_says(threads: int, algorithm: str, tmp_path,
                                           hip_oracle: HipOracle):
    reported, proc = compile_converted(KERNEL.format(threads=threads, algorithm=algorithm),
                                       "HP415", tmp_path, hip_oracle)
    assert (proc.returncode != 0) == reported, proc.stderr[-2000:]
    if reported:
        assert "BlockSize must be a multiple of hardware warpsize" in proc.stderr


# HP418: atomicAdd on 16-bit floats, which CUDA declares and ROCm does not.
HALF2_ADD = ("#include <cuda_fp16.h>\n__global__ void k(float* p, half v) {{\n"
             "  half2 h2; h2.x = v; h2.y = v;\n  {call};\n}}\n")


@pytest.mark.parametrize("call, kind", [
    pytest.param("atomicAdd(reinterpret_cast<half2*>(p), h2)", "half2", id="reinterpret-cast"),
    pytest.param("atomicAdd((__half*)p, v)", "__half", id="c-cast"),
    pytest.param("atomicAdd( reinterpret_cast< __nv_bfloat16 * >(p), b)", "__nv_bfloat16",
                 id="bfloat16-spaced"),
])
def test_hp418_names_the_half_precision_atomic(call: str, kind: str):
    source = HALF2_ADD.format(call=call)
    assert found(source, "HP418") == [4]
    result = convert_source(source, Settings())
    (message,) = [f.finding.message for f in result.findings if f.code == "HP418"]
    assert f"`atomicAdd` on `{kind}*`" in message
    assert ("unsafeAtomicAdd" in message) == (kind == "half2")


@pytest.mark.parametrize("call", [
    pytest.param("atomicAdd(p, 1.0f)", id="float"),
    pytest.param("atomicAdd(reinterpret_cast<float*>(p), 1.0f)", id="float-cast"),
    pytest.param("myAtomicAdd(reinterpret_cast<half2*>(p), h2)", id="another-function"),
    pytest.param("/* atomicAdd(reinterpret_cast<half2*>(p), h2) */ (void)h2", id="a-comment"),
])
def test_hp418_look_alikes(call: str):
    assert found(HALF2_ADD.format(call=call), "HP418") == []


@pytest.mark.slow
def test_hp418_says_what_rocm_72_says(tmp_path):
    """The reported call does not compile on ROCm 7.2; the suggested one does."""
    oracle = require_hip_oracle("rocm-7.2")
    source = HALF2_ADD.format(call="atomicAdd(reinterpret_cast<half2*>(p), h2)")
    reported, proc = compile_converted(source, "HP418", tmp_path, oracle)
    assert reported and proc.returncode != 0
    assert "no matching function for call to 'atomicAdd'" in proc.stderr
    fixed_source = source.replace("atomicAdd(", "unsafeAtomicAdd(")
    reported, proc = compile_converted(fixed_source, "HP418", tmp_path, oracle)
    assert not reported and proc.returncode == 0, proc.stderr[-2000:]
