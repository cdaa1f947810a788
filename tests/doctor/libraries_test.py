import pytest

from hipport.doctor.libraries import (
    BY_CUDA,
    BY_KEY,
    LIBRARIES,
    header_version,
    library_of_include,
    probe_library,
    runtime_package,
)
from hipport.doctor.rocm import find_rocm
from hipport.table import load_table
from tests.doctor.roots import isolated, suite_root

# What Debian ships per suite (package versions are ROCm releases); None: absent.
PRESENT = {
    "bookworm": {"hip": (5, 2, 3), "hiprand": (5, 3, 3), "hipsparse": (5, 3, 3),
                 "rocprim": (5, 3, 3), "hipblas": None, "hipblaslt": None, "hipfft": None},
    "trixie": {"hipblas": (5, 5, 1), "hipfft": (6, 1, 2), "hipsolver": (5, 5, 1),
               "hipcub": (5, 7, 1), "rocthrust": (5, 7, 1), "rccl": (5, 4, 3),
               "hipblaslt": None, "miopen": None},
    "sid": {"hipblas": (6, 4, 4), "hipblaslt": (7, 1, 1), "miopen": (6, 4, 3),
            "hip": (6, 4, 3)},
}


def _probe(tmp_path, suite, key):
    root, _ = find_rocm(isolated(tmp_path), suite_root(suite))
    assert root is not None
    return probe_library(BY_KEY[key], root)


@pytest.mark.parametrize(("suite", "key"), [(s, k) for s in PRESENT for k in PRESENT[s]])
def test_debian_layouts(tmp_path, suite, key):
    found = _probe(tmp_path, suite, key)
    expected = PRESENT[suite][key]
    if expected is None:
        assert not found.present and found.rocm is None
        return
    assert found.present and found.rocm == expected
    assert found.package == BY_KEY[key].debian
    assert found.version is not None, "the version header was not read"
    assert BY_KEY[key].cmake_config is None or found.cmake is not None


def test_shared_libraries_are_followed_to_the_file(tmp_path):
    found = _probe(tmp_path, "trixie", "hipblas")
    assert found.shared is not None and found.shared.name == "libhipblas.so.0.1"
    assert found.complete


@pytest.mark.parametrize(("suite", "key", "target"), [
    # The -dev package's libfoo.so is there, the runtime package is not
    # (left out of the fixtures for its size, as a user may leave it out).
    ("sid", "hipblaslt", "libhipblaslt.so.1"),
    ("trixie", "rccl", "librccl.so.1"),
])
def test_dangling_development_symlink(tmp_path, suite, key, target):
    found = _probe(tmp_path, suite, key)
    assert found.present and found.shared is None and not found.complete
    assert found.dangling is not None and found.dangling[1] == target


def test_header_only_libraries_need_no_shared_library(tmp_path):
    found = _probe(tmp_path, "trixie", "hipcub")
    assert found.complete and found.shared is None


@pytest.mark.parametrize(("suite", "key", "version"), [
    ("sid", "hipblas", (2, 4, 0)),  # hipblasVersionMajor ... (lower-camel macros)
    ("sid", "hipblaslt", (1, 1, 0)),  # HIPBLASLT_VERSION_MAJOR, aligned with spaces
    ("sid", "hiprand", (2, 12, 0)),  # HIPRAND_VERSION 201200 (one encoded number)
    ("bookworm", "hiprand", (2, 10, 9)),
    ("trixie", "rccl", (2, 13, 4)),  # NCCL_MAJOR in rccl.h
    ("sid", "miopen", (3, 4, 0)),
])
def test_version_headers(tmp_path, suite, key, version):
    lib = BY_KEY[key]
    assert header_version(suite_root(suite) / "include" / lib.version_header,
                          lib.version_macros) == version


@pytest.mark.parametrize(("soname", "package"), [
    ("libhipblas.so.2", "libhipblas2"),
    ("libhipblaslt.so.1", "libhipblaslt1"),
    ("libamdhip64.so.6", "libamdhip64-6"),  # a name ending in a digit takes a hyphen
    ("librccl.so.1", "librccl1"),
])
def test_runtime_package_names(soname, package):
    assert runtime_package(soname) == package


@pytest.mark.parametrize(("target", "key"), [
    ("hipblas/hipblas.h", "hipblas"),
    ("hipblas.h", "hipblas"),
    ("hipblaslt/hipblaslt.h", "hipblaslt"),
    ("hip/hip_runtime.h", "hip"),
    ("hip/hiprtc.h", "hiprtc"),
    ("thrust/device_vector.h", "rocthrust"),
    ("rccl/rccl.h", "rccl"),
    ("hipcub/hipcub.hpp", "hipcub"),
])
def test_library_of_include(target, key):
    lib = library_of_include(target)
    assert lib is not None and lib.key == key


@pytest.mark.parametrize("target", ["stdio.h", "cublas_v2.h", "myproject/hipblas_wrapper.h"])
def test_library_of_include_noop(target):
    assert library_of_include(target) is None


def test_every_catalogue_library_has_its_rocm_library():
    """Every catalogue entry's ROCm library is one doctor knows, the one the
    library table gives its CUDA library (no catalogue file names another)."""
    table = load_table()
    for mapping in table:
        lib = BY_CUDA.get(mapping.library)
        assert lib is not None, f"{mapping.library} ({mapping.origin}) has no ROCm library"
        assert lib.key == mapping.hip_library, mapping.origin


def test_every_library_has_an_install_hint():
    for lib in LIBRARIES:
        assert lib.rocm_package and lib.install_hint() and lib.install_hint(12)


@pytest.mark.parametrize(("key", "debian", "hint"), [
    ("hipblas", 12, "not packaged in Debian 12 (Debian 13 has libhipblas-dev); "
                    "AMD's ROCm repositories: hipblas-dev"),
    ("hipblas", 13, "apt install libhipblas-dev (AMD's ROCm repositories: hipblas-dev)"),
    ("hipblaslt", 13, "not packaged in Debian 13 (Debian unstable has libhipblaslt-dev); "
                      "AMD's ROCm repositories: hipblaslt-dev"),
    ("hipblaslt", None, "apt install libhipblaslt-dev (AMD's ROCm repositories: hipblaslt-dev)"),
    ("hiprand", 12, "apt install libhiprand-dev (AMD's ROCm repositories: hiprand-dev)"),
    ("roctx", 13, "install roctracer-dev from AMD's ROCm repositories (not in Debian)"),
])
def test_install_hints_follow_the_debian_release(key, debian, hint):
    assert BY_KEY[key].install_hint(debian) == hint


@pytest.mark.parametrize(("suite", "key"), [(s, k) for s in PRESENT for k in PRESENT[s]])
def test_debian_since_matches_the_archive(suite, key):
    """debian_since agrees with what the suites' fixtures hold."""
    release = {"bookworm": 12, "trixie": 13, "sid": 14}[suite]
    assert (BY_KEY[key].debian_since <= release) == (PRESENT[suite][key] is not None)


@pytest.mark.parametrize("toolchain", [False, True], ids=["machine", "toolchain"])
def test_headers_only_is_a_fact_of_hipports_toolchain(tmp_path, toolchain):
    """Issue 26: right after `scripts/bootstrap.sh --toolchain`, doctor warned
    of hipBLASLt, RCCL and MIOpen, which that toolchain has as headers only
    by design (docs/toolchains.md), with advice (apt install) for the host."""
    from hipport.doctor.diagnose import library_check
    from hipport.doctor.model import Status

    check = library_check(_probe(tmp_path, "sid", "hipblaslt"), None, toolchain)
    if toolchain:
        assert check.status is Status.INFO and not check.advice
        assert "headers only in hipport's ROCm toolchain" in check.detail
    else:
        assert check.status is Status.WARN and check.advice.startswith("apt install")
