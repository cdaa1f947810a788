from hipport.doctor.model import at_least
from hipport.doctor.tree import hip_index, needs_of
from hipport.table import load_table
from tests.doctor.trees import BLAS_FFT_HIP, COMPUTE_32F, CUBLASLT, GUARDED, HIPBLASLT, tree


def test_cuda_tree_needs_hipblaslt(tmp_path):
    needs = needs_of([tree(tmp_path, **{"gemm.cu": CUBLASLT})])
    assert set(needs.libraries) == {"hip", "hipblaslt"}
    lt = needs.libraries["hipblaslt"]
    assert lt.headers == ("hipblaslt/hipblaslt.h",)
    # hipBLASLt is in the 6.4 headers and not in 5.7's: the catalogue says 6.4.
    assert lt.min_rocm == (6, 4) and lt.because.startswith("cublasLt")
    assert needs.cuda_uses == 3 and needs.hip_uses == 0


def test_hip_tree_needs_the_same(tmp_path):
    needs = needs_of([tree(tmp_path, **{"gemm.hip.cpp": HIPBLASLT})])
    assert set(needs.libraries) == {"hip", "hipblaslt"}
    lt = needs.libraries["hipblaslt"]
    assert lt.headers == ("hipblaslt/hipblaslt.h",)
    assert lt.min_rocm == (6, 4) and lt.because.startswith("hipblasLt")
    assert needs.hip_uses == 3 and needs.cuda_uses == 0


def test_hip_tree_with_several_libraries(tmp_path):
    needs = needs_of([tree(tmp_path, **{"src__run.cpp": BLAS_FFT_HIP})])
    assert set(needs.libraries) == {"hip", "hipblas", "hipfft"}
    assert needs.libraries["hip"].headers == ("hip/hip_runtime.h",)
    assert needs.libraries["hipfft"].first.startswith("hipfftHandle (")


def test_min_rocm_comes_from_the_catalogue(tmp_path):
    needs = needs_of([tree(tmp_path, **{"t.cu": COMPUTE_32F})])
    # hipblasComputeType_t is in the 6.4 headers and not in 5.7's (header evidence).
    assert needs.libraries["hipblas"].min_rocm == (6, 4)
    version, because = needs.min_rocm
    # The first use that needs it: the compute type.
    assert version == (6, 4) and because.startswith("cublasComputeType_t (")
    assert because.endswith("t.cu:3)")


def test_version_guarded_uses_do_not_raise_the_rocm_release(tmp_path):
    needs = needs_of([tree(tmp_path, **{"g.cu": GUARDED})])
    hip = needs.libraries["hip"]
    assert hip.uses >= 2  # still used ...
    assert hip.min_rocm is None or not at_least(hip.min_rocm, (5, 7))  # ... but not 5.7+


def test_unguarded_use_raises_it(tmp_path):
    text = GUARDED.replace("#if defined(__NVCC__) && CUDART_VERSION >= 11070", "#if 1")
    needs = needs_of([tree(tmp_path, **{"g.cu": text})])
    assert needs.libraries["hip"].min_rocm == (5, 7)


def test_include_guards_are_not_version_tests(tmp_path):
    text = "#ifndef MY_GEMM_H\n#define MY_GEMM_H\n" + COMPUTE_32F + "#endif\n"
    needs = needs_of([tree(tmp_path, **{"gemm.cuh": text})])
    assert needs.libraries["hipblas"].min_rocm == (6, 4)


def test_plain_c_code_needs_nothing(tmp_path):
    needs = needs_of([tree(tmp_path, **{"main.cpp": "int main() { return 0; }\n"})])
    assert needs.libraries == {}


def test_hip_index_leaves_out_c_types_and_shared_names():
    index = hip_index(load_table())
    assert "int" not in index and "__syncthreads" not in index
    assert index["hipblasLtCreate"][0] == "hipblaslt"
    assert index["hipMalloc"][0] == "hip"
