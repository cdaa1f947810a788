"""The estimate (issue 28): only what the build reaches is billed, blockers
and review come from what each code leaves for a person, review is billed
per file, every line has a range and its locations, and a build of the
converted tree (--verify) replaces what the findings predict."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.report.built import BuildError, BuildOutcome
from hipport.report.effort import EffortModel
from hipport.report.run import ReportRequest, make_report
from tests.report.helpers import rendered, validate_report_json
from tests.trees import write_tree

# A program and the shared helper folder of its repository: the program
# includes one helper; the other two (an API with no HIP equivalent, OpenGL
# interop) belong to other programs.
PROGRAM = {
    "app/CMakeLists.txt": "project(app LANGUAGES CXX CUDA)\n"
                          "include_directories(${CMAKE_SOURCE_DIR}/../utils)\n"
                          "add_executable(app main.cu)\n",
    "app/main.cu": '#include <cuda_runtime.h>\n#include "helper.h"\n'
                   "int main() { float* p; cudaMalloc(&p, 4); cudaFree(p); return check(); }\n",
    "utils/helper.h": "#pragma once\ninline int check() { return 0; }\n",
    "utils/other_sample.h": "#pragma once\n#include <cuda_runtime.h>\n"
                            "inline void g() { cudaInitDevice(0, 0, 0);\n"
                            "  cudaInitDevice(0, 0, 0); }\n",
    "utils/gl_interop.h": "#pragma once\n#include <cuda_gl_interop.h>\n"
                          "inline void h() { cudaProfilerInitialize(0, 0, 0); }\n",
}



def report(root: Path, builder=None, **options):
    return make_report(ReportRequest((root,), jobs=1, cache=False, **options), builder=builder)


def test_helpers_no_target_reaches_are_reported_apart_and_billed_nothing(tmp_path):
    r = report(write_tree(tmp_path, PROGRAM))
    assert [row.cuda_name for row in r.ledger] == []  # cudaInitDevice is not built
    assert not [line for line in r.effort.lines if line.blocker]
    assert (r.coverage.every_file, r.coverage.not_built_files) == (False, 2)
    assert r.coverage.not_built_findings == 3  # two cudaInitDevice, cudaProfilerInitialize
    assert r.coverage.not_built_paths == ("utils/gl_interop.h", "utils/other_sample.h")
    assert {f.path: f.built for f in r.files}["utils/other_sample.h"] is False
    assert r.effort.total <= 0.2  # review of the two converted files, no blocker
    for fmt in ("text", "md", "html"):
        flat = " ".join(rendered(r, fmt).split())
        assert "Not built: 2 files" in flat, fmt
        assert "covers what the build reaches" in flat, fmt
    data = validate_report_json(rendered(r, "json"))
    assert data["coverage"]["not_built"]["files"] == 2
    assert [f["built"] for f in data["files"] if f["path"] == "utils/gl_interop.h"] == [False]


def test_without_build_files_the_estimate_covers_every_file(tmp_path):
    files = {k: v for k, v in PROGRAM.items() if not k.endswith("CMakeLists.txt")}
    r = report(write_tree(tmp_path, files))
    assert r.coverage.every_file and r.coverage.not_built_files == 0
    assert {row.cuda_name for row in r.ledger} == {"cudaInitDevice", "cudaProfilerInitialize"}
    assert "The estimate covers every file" in " ".join(rendered(r, "text").split())


def test_when_no_target_can_be_read_the_cuda_sources_are_billed_with_their_blockers(tmp_path):
    """'0 targets of 2 build files' billed the only CUDA file, and its nvml.h
    blocker, 0 days (issue 32 §16): every source counts now, in every format."""
    root = write_tree(tmp_path, {
        "CMakeLists.txt": "project(m LANGUAGES CXX CUDA)\nadd_subdirectory(src)\n",
        "src/CMakeLists.txt": "pybind11_add_module(monitor monitor.cu)\n",
        "src/monitor.cu": "#include <nvml.h>\n#include <cuda_runtime.h>\n"
                          "int temperature() { nvmlInit(); return 0; }\n"})
    r = report(root)
    assert r.coverage.every_file
    blockers = [line for line in r.effort.lines if line.blocker]
    assert [(line.item, line.locations) for line in blockers] == [
        ("nvml.h: unsupported API", ("src/monitor.cu:1",)),
        ("nvmlInit: unsupported API", ("src/monitor.cu:3",))]
    for fmt in ("text", "md", "html"):
        assert "so every source counts (1 CUDA file)" in " ".join(rendered(r, fmt).split()), fmt
    data = validate_report_json(rendered(r, "json"))
    assert data["coverage"]["every_file"] and data["effort"]["blocker_days"] > 0


def test_review_is_billed_per_file_touched_not_per_reference(tmp_path):
    few = write_tree(tmp_path / "few", {"a.cu": "void f(float* p) { cudaFree(p); }\n"})
    many = write_tree(tmp_path / "many", {"a.cu": "void f(float* p) {\n"
                                             + "  cudaFree(p);\n" * 60 + "}\n"})
    one, sixty = report(few), report(many)
    assert (one.totals.refs_converted, sixty.totals.refs_converted) == (1, 60)
    assert one.effort.total == sixty.effort.total == pytest.approx(
        EffortModel().per_converted_file)
    [line] = sixty.effort.lines
    assert (line.item, line.quantity, line.kind) == (
        "review and test the files the conversion changes", 1, "review")


def test_blockers_and_review_follow_each_codes_work(tmp_path):
    """A lane computed with 32 changes results (a blocker, per finding); a
    managed allocation is review (per file it is in); an API with no HIP
    equivalent stops the build."""
    root = write_tree(tmp_path, {"k.cu": "__global__ void k(int* p) {\n"
                                    "  p[threadIdx.x % 32] = 1; p[threadIdx.x % 32] = 2; }\n"
                                    "void f(int** p) { cudaMallocManaged(p, 4);\n"
                                    "  cudaMallocManaged(p, 8); cudaInitDevice(0, 0, 0); }\n"})
    r = report(root)
    lines = {line.item: line for line in r.effort.lines}
    model = EffortModel()
    hazard = lines["HP401 warp-size-literal"]
    assert (hazard.kind, hazard.stage, hazard.quantity) == ("changes-results", "results", 2)
    assert hazard.days == pytest.approx(2 * model.finding_weight("HP401"))
    assert hazard.locations == ("k.cu:2",)
    managed = lines["HP506 managed-memory-hint"]
    assert (managed.kind, managed.quantity) == ("review", 1)
    assert managed.days == pytest.approx(model.finding_weight("HP506"))
    api = lines["cudaInitDevice: unsupported API"]
    assert (api.kind, api.stage, api.locations) == ("breaks-build", "compile", ("k.cu:4",))
    # Next steps: what stops the build, then what changes results, then review.
    assert [line.stage for line in r.effort.lines] == ["compile", "results", "review",
                                                       "review"]


def test_every_line_has_a_range_around_its_likely_days(tmp_path):
    source = ("__global__ void parent(int* p) { child<<<1, 1>>>(p); }\n"
              "__global__ void child(int* p) { p[0] = 1; }\n"
              "void f() { cudaInitDevice(0, 0, 0); }\n")
    r = report(write_tree(tmp_path, {"k.cu": source}))
    assert r.effort.lines
    for line in r.effort.lines:
        assert line.low < line.days < line.high, line
    assert r.effort.low == pytest.approx(sum(line.low for line in r.effort.lines))
    assert r.effort.high == pytest.approx(sum(line.high for line in r.effort.lines))
    assert r.effort.low < r.effort.total < r.effort.high
    assert "estimated effort" in rendered(r, "text") and "(likely" in rendered(r, "text")
    data = json.loads(rendered(r, "json"))["effort"]
    assert data["low_days"] < data["likely_days"] < data["high_days"]


def test_a_build_of_the_converted_tree_replaces_the_prediction(tmp_path):
    """--verify: the errors the build left are billed, one line per cause;
    an API the static estimate would bill in a file that compiled is not, one
    the compiler named is billed through its error, one in a file that failed
    for another reason stays; what changes results stays."""
    root = write_tree(tmp_path, {
        "ok.cu": "void f() { cudaInitDevice(0, 0, 0); }\n",  # compiled after all
        "bad.cu": "void g() {\n  cudaProfilerInitialize(0, 0, 0);\n  cudaInitDevice(0, 0, 0);\n"
                  "}\n__global__ void k(int* p) { p[threadIdx.x % 32] = 1; }\n",
    })
    seen: list[tuple[Path, int, float]] = []

    def builder(converted: Path, jobs: int, timeout: float) -> BuildOutcome:
        seen.append((converted, jobs, timeout))
        assert (converted / "bad.cu").is_file() and (converted / "ok.cu").is_file()
        assert "cudaFree" not in (converted / "bad.cu").read_text()
        return BuildOutcome("2 units compiled by a test", (
            BuildError("use of undeclared identifier 'cudaProfilerInitialize'", "bad.cu", 2),
            BuildError("no matching function for call to 'min'", "bad.cu", 3),
            BuildError("no matching function for call to 'min'", "bad.cu", 4),
        ), failed=frozenset({"bad.cu"}), passed=frozenset({"ok.cu"}))

    r = report(root, verify=True, timeout=12.0, builder=builder)
    assert len(seen) == 1 and seen[0][2] == 12.0 and not seen[0][0].exists()  # cleaned up
    assert r.effort.basis == "built" and "2 units compiled by a test" in r.effort.basis_detail
    lines = {line.item: line for line in r.effort.lines}
    cause = lines["build error: no matching function for call to 'min'"]
    model = EffortModel()
    assert (cause.quantity, cause.locations, cause.stage) == (2, ("bad.cu:3", "bad.cu:4"),
                                                               "compile")
    assert cause.days == pytest.approx(model.per_build_error + model.per_build_error_location)
    assert "build error: use of undeclared identifier 'cudaProfilerInitialize'" in lines
    assert "cudaProfilerInitialize: removed API" not in lines  # billed through its error
    assert lines["cudaInitDevice: unsupported API"].locations == ("bad.cu:3",)  # not ok.cu's
    assert "HP401 warp-size-literal" in lines
    static = report(root)
    assert static.effort.basis == "static"
    assert "cudaInitDevice: unsupported API" in {line.item for line in static.effort.lines}


def test_verify_needs_a_builder(tmp_path):
    from hipport.errors import UsageError

    with pytest.raises(UsageError, match="builder"):
        make_report(ReportRequest((write_tree(tmp_path, {"a.cu": ""}),), verify=True))


def test_a_build_that_judged_nothing_leaves_the_static_basis(tmp_path):
    root = write_tree(tmp_path, {"k.cu": "void f() { cudaInitDevice(0, 0, 0); }\n"})
    r = report(root, verify=True, builder=lambda *_: BuildOutcome("0 of 0 units compile"))
    assert r.effort.basis == "static"
    assert r.effort.basis_detail == "static: the build judged nothing (0 of 0 units compile)"
    assert "cudaInitDevice: unsupported API" in {line.item for line in r.effort.lines}
