"""What ROCm lacks is a blocker in the static report, at the line the
converted build stops at, before any build (issue 32 §6): inline PTX,
dynamic parallelism, nvJitLink, cuBLASXt, cuSOLVER's low-level preview and
host-side sparse helpers, NVML, and device intrinsics HIP does not declare.
Each has a look-alike that must cost nothing."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.report.run import ReportRequest, make_report
from tests.trees import write_tree

CMAKE = ("cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n"
         "add_executable(app {sources})\n")

FAILING = {
    "ptx.cu": "__global__ void k(unsigned* o) {\n  unsigned lane;\n"
              '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n  o[0] = lane;\n}\n',
    "nested.cu": "__global__ void child(int* d) { d[0] = 1; }\n"
                 "__global__ void parent(int* d) {\n  child<<<1, 64>>>(d);\n}\n"
                 "__device__ void spawn(int* d) {\n  void* a[] = {&d};\n"
                 "  cudaLaunchKernel((void*)child, dim3(1), dim3(1), a, 0, 0);\n}\n",
    "jit.cpp": "#include <nvJitLink.h>\nvoid link_it(const char** opts) {\n"
               "  nvJitLinkHandle h;\n  nvJitLinkCreate(&h, 1, opts);\n}\n",
    "xt.cpp": "#include <cublasXt.h>\nvoid gemm(float* a, float* b, float* c) {\n"
              "  cublasXtHandle_t h;\n  cublasXtCreate(&h);\n"
              "  float one = 1, zero = 0;\n  cublasXtSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, "
              "&one, a, 2, b, 2, &zero, c, 2);\n}\n",
    "sparse.cpp": "#include <cusolverSp.h>\n#include <cusolverSp_LOWLEVEL_PREVIEW.h>\n"
                  "void solve(cusolverSpHandle_t h, cusparseMatDescr_t d, float* v, int* r, "
                  "int* c, float* b, float* x) {\n  int singular;\n"
                  "  cusolverSpScsrlsvqrHost(h, 2, 2, d, v, r, c, b, 0.f, 0, x, &singular);\n}\n",
    "monitor.cpp": "#include <nvml.h>\nunsigned temperature() {\n  nvmlInit();\n"
                   "  nvmlDevice_t dev;\n  nvmlDeviceGetHandleByIndex(0, &dev);\n"
                   "  unsigned t = 0;\n  nvmlDeviceGetTemperature(dev, NVML_TEMPERATURE_GPU, &t);\n"
                   "  nvmlShutdown();\n  return t;\n}\n",
    "dot.cu": "__global__ void dot(int* o, const int* a) {\n  o[0] = __dp4a(a[0], a[1], 0);\n}\n",
}

# (the estimate's item, the first place it names)
BLOCKERS = [
    pytest.param("HP420 inline-ptx", "ptx.cu:3", id="inline-ptx"),
    pytest.param("HP502 device-side-launch", "nested.cu:3", id="dynamic-parallelism"),
    pytest.param("nvJitLink.h: unsupported API", "jit.cpp:1", id="nvjitlink-header"),
    pytest.param("nvJitLinkCreate: unsupported API", "jit.cpp:4", id="nvjitlink-call"),
    pytest.param("cublasXt.h: unsupported API", "xt.cpp:1", id="cublasxt-header"),
    pytest.param("cublasXtSgemm: unsupported API", "xt.cpp:6", id="cublasxt-call"),
    pytest.param("cusolverSp_LOWLEVEL_PREVIEW.h: unsupported API", "sparse.cpp:2",
                 id="cusolver-low-level-header"),
    pytest.param("cusolverSpScsrlsvqrHost: unsupported API", "sparse.cpp:5",
                 id="cusolver-host-helper"),
    pytest.param("nvml.h: unsupported API", "monitor.cpp:1", id="nvml"),
    pytest.param("nvmlInit: unsupported API", "monitor.cpp:3", id="nvml-init"),
    pytest.param("nvmlDeviceGetHandleByIndex: unsupported API", "monitor.cpp:5",
                 id="nvml-device-handle"),
    pytest.param("nvmlDeviceGetTemperature: unsupported API", "monitor.cpp:7",
                 id="nvml-temperature"),
    pytest.param("nvmlShutdown: unsupported API", "monitor.cpp:8", id="nvml-shutdown"),
    pytest.param("__dp4a: unsupported API", "dot.cu:2", id="device-intrinsic"),
]

LOOK_ALIKES = {
    # x86 assembly and launches in host code build as they did
    "host.cu": "__global__ void k(int* p) { p[0] = 1; }\n"
               "unsigned long long ticks() {\n  unsigned lo, hi;\n"
               '  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));\n'
               "  return ((unsigned long long)hi << 32) | lo;\n}\n"
               "void run(int* p) {\n  k<<<1, 64>>>(p);\n  void* a[] = {&p};\n"
               "  cudaLaunchKernel((void*)k, dim3(1), dim3(1), a, 0, 0);\n}\n",
    # names that only look like NVML, nvJitLink or an intrinsic: the project's own
    "names.cu": "struct nvJitLinker { int jobs; };\n"
                "__device__ int __dp4a(int a, int b, int c) { return a + b + c; }\n"
                "int pick(nvJitLinker l) {\n  int nvmlDevice = l.jobs;\n  return nvmlDevice;\n}\n"
                "__global__ void k(int* o) { o[0] = __dp4a(1, 2, 3); }\n",
}


def report(root: Path):
    return make_report(ReportRequest((root,), jobs=1, cache=False))


@pytest.fixture(scope="module")
def failing_report(tmp_path_factory):
    files = dict(FAILING, **{"CMakeLists.txt": CMAKE.format(sources=" ".join(FAILING))})
    return report(write_tree(tmp_path_factory.mktemp("unsupported"), files))


@pytest.mark.parametrize("item, location", BLOCKERS)
def test_what_rocm_lacks_is_a_blocker_at_its_line(failing_report, item: str, location: str):
    lines = {line.item: line for line in failing_report.effort.lines}
    assert item in lines, sorted(lines)
    line = lines[item]
    assert (line.kind, line.stage) == ("breaks-build", "compile")
    assert location in line.locations and line.days > 0


def test_the_advice_names_the_rocm_replacement(failing_report):
    notes = {row.cuda_name: row.note for row in failing_report.ledger}
    assert "AMD SMI" in notes["nvml.h"] and "rocm_smi" in notes["nvml.h"]
    # each NVML call names its own counterpart in both libraries
    assert "amdsmi_init" in notes["nvmlInit"] and "rsmi_init" in notes["nvmlInit"]
    assert "amdsmi_get_temp_metric" in notes["nvmlDeviceGetTemperature"]
    assert "rsmi_dev_temp_metric_get" in notes["nvmlDeviceGetTemperature"]
    assert "amdsmi_shut_down" in notes["nvmlShutdown"]
    assert "hiprtcLinkCreate" in notes["nvJitLink.h"]
    assert "hipblasSgemm" in notes["cublasXtSgemm"]
    assert "hipsolverSp" in notes["cusolverSpScsrlsvqrHost"]


def test_look_alikes_cost_no_blocker(tmp_path):
    files = dict(LOOK_ALIKES, **{"CMakeLists.txt": CMAKE.format(sources=" ".join(LOOK_ALIKES))})
    r = report(write_tree(tmp_path, files))
    assert [line.item for line in r.effort.lines if line.blocker] == []
    assert r.ledger == ()


# The same constructs in one unit, converted and compiled by each HIP compiler:
# every line the compiler stops at carries a blocker finding (the rule of
# issue 32 §6: no surprise failures).  Each unit includes the runtime header,
# which the conversion renames in place: its lines keep their numbers.
UNIT = """#include <cuda_runtime.h>
__global__ void child(int* d) { d[0] = 1; }
__global__ void parent(int* d) {
  child<<<1, 64>>>(d);
}
__device__ void spawn(int* d) {
  void* a[] = {&d};
  cudaLaunchKernel((void*)child, dim3(1), dim3(1), a, 0, 0);
}
__global__ void k(unsigned* o, const int* p) {
  o[0] = __dp4a(p[0], p[1], 0);
  __shared__ int s[4];
  o[1] = __isShared(s);
  o[2] = __isGlobal(p);
  __barrier_sync(1);
  o[3] = __uni_sync(~0u, p[0] > 0);
}
"""
PTX_UNIT = "#include <cuda_runtime.h>\n" + FAILING["ptx.cu"]
LOOK_ALIKE_UNIT = "#include <cuda_runtime.h>\n" + LOOK_ALIKES["host.cu"] + \
    LOOK_ALIKES["names.cu"].replace("__global__ void k(", "__global__ void k2(")


def _compiled(source: str, tmp_path: Path, oracle) -> tuple[set[int], set[int]]:
    """(the lines the converted unit's blocker findings name, the lines its
    compile stops at)."""
    from hipport.api import convert_source
    from hipport.report.model import work_of
    from tests.toolchain import compile_hip

    result = convert_source(source, name="unit.cu")
    path = tmp_path / "unit.hip"
    path.write_bytes(result.output)
    proc = compile_hip(path, oracle=oracle)
    errors = {int(m[1]) for m in re.finditer(r"unit\.hip:(\d+):\d+: error", proc.stderr)}
    assert (proc.returncode == 0) == (not errors), proc.stderr[-3000:]
    return {f.location.line for f in result.findings if work_of(f.code).blocker}, errors


@pytest.mark.parametrize("source", [pytest.param(UNIT, id="missing-apis"),
                                    pytest.param(PTX_UNIT, id="inline-ptx")])
def test_every_line_the_build_stops_at_has_a_blocker(source: str, tmp_path: Path, hip_oracle):
    blockers, errors = _compiled(source, tmp_path, hip_oracle)
    assert errors, "the unit compiled: the blockers would be false"
    assert errors <= blockers, (sorted(errors), sorted(blockers))


def test_the_look_alikes_build_and_have_no_blocker(tmp_path: Path, hip_oracle):
    blockers, errors = _compiled(LOOK_ALIKE_UNIT, tmp_path, hip_oracle)
    assert (blockers, errors) == (set(), set())


@pytest.mark.parametrize("header, code", [
    pytest.param("nvJitLink.h", "HP901", id="nvjitlink"),
    pytest.param("cusolverSp_LOWLEVEL_PREVIEW.h", "HP901", id="cusolver-preview"),
    pytest.param("cupti.h", "HP901", id="cupti"),
    pytest.param("cupti_activity.h", "HP900", id="cupti-part"),
    pytest.param("nvjpeg.h", "HP901", id="nvjpeg"),
    pytest.param("npp.h", "HP901", id="npp"),
    pytest.param("nppi_filtering_functions.h", "HP900", id="npp-part"),
    pytest.param("cutensor.h", "HP901", id="cutensor"),
    pytest.param("cufile.h", "HP901", id="cufile"),
    pytest.param("nvPTXCompiler.h", "HP901", id="ptx-compiler"),
    pytest.param("nvfatbin.h", "HP901", id="nvfatbin"),
    pytest.param("cudla.h", "HP901", id="cudla"),
])
def test_headers_of_libraries_rocm_lacks_are_blockers(header: str, code: str):
    """They were left as they were with no finding, and the build stopped at
    'file not found' on a line the report billed nothing."""
    from hipport.api import convert_source
    from hipport.report.model import work_of

    result = convert_source(f"#include <{header}>\nint main() {{ return 0; }}\n", name="m.cu")
    [found] = [f for f in result.findings if f.code.startswith("HP9")]
    assert (found.code, found.location.line) == (code, 1) and work_of(code).blocker


@pytest.mark.parametrize("line", [
    pytest.param('#include "cupti_stub.h"', id="project-header-quoted"),
    pytest.param("#include <cutlass/cutlass.h>", id="cutlass-is-not-cutensor"),
    pytest.param("#include <nvidia/gdrcopy.h>", id="other-nvidia-name"),
])
def test_look_alike_headers_are_left_alone(line: str):
    from hipport.api import convert_source

    result = convert_source(f"{line}\nint main() {{ return 0; }}\n", name="m.cu")
    assert not [f for f in result.findings if f.code.startswith("HP9")]
