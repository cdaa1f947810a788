"""benchmarks/realworld.py: error classes, first errors, TUs and programs, the summary."""
from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.realworld import Compile, Unit, classify, find_units, first_error, markdown


@pytest.mark.parametrize(("msg", "klass", "symbol"), [
    pytest.param("'cublasLt.h' file not found", "missing header", "cublasLt.h", id="header"),
    pytest.param("unknown type name 'cudaEmulationMantissaControl'", "unknown type name",
                 "cudaEmulationMantissaControl", id="type"),
    pytest.param("use of undeclared identifier 'CUDA_R_8I'", "undeclared identifier",
                 "CUDA_R_8I", id="identifier"),
    pytest.param("identifier \"foo\" is undefined", "undeclared identifier", "foo",
                 id="nvcc-identifier"),
    pytest.param("call to undeclared function 'cudaMemcpy'; ISO C99 and later do not support",
                 "undeclared function", "cudaMemcpy", id="c-function"),
    pytest.param("cannot initialize a parameter of type 'void **' with an rvalue of type "
                 "'float **'", "void** argument", "float **", id="void-pp"),
    pytest.param("cannot initialize a variable of type 'int' with an lvalue of type 'S'",
                 "cannot initialize", "int / S", id="init-other"),
    pytest.param("no matching function for call to '__ldcs'", "no matching function", "__ldcs",
                 id="no-match"),
    pytest.param("call to 'max' is ambiguous", "ambiguous", "max", id="ambiguous"),
    pytest.param("no member named 'x' in 'hip_impl::Foo'", "no member", "x / hip_impl::Foo",
                 id="member"),
    pytest.param("invalid instruction mnemonic 'cp'", "inline asm", "", id="asm"),
    pytest.param('("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__");',
                 "#error", "Must define exactly one of __HIP_PLATFORM_AMD__ or "
                 "__HIP_PLATFORM_NVIDIA__", id="error-directive"),
    pytest.param("expected ';' after expression", "syntax", "", id="syntax"),
    pytest.param("something nobody has seen before at all", "other",
                 "something nobody has seen before at", id="other"),
])
def test_classify(msg: str, klass: str, symbol: str) -> None:
    assert classify(msg) == (klass, symbol)


def test_first_error_is_the_first_error_line_and_knows_helpers(tmp_path: Path) -> None:
    stderr = (f"{tmp_path}/utils/u.h:3:1: warning: unused [-Wunused]\n"
              f"In file included from {tmp_path}/a/x.cu:2:\n"
              f"{tmp_path}/utils/u.h:9:16: error: use of undeclared identifier 'HIP_R_8I'\n"
              f"{tmp_path}/a/x.cu:5:1: error: unknown type name 'foo_t'\n")
    got = first_error(stderr, tmp_path, "a/x.cu")
    assert (got.error_file, got.error_class, got.symbol, got.in_helper) == (
        "utils/u.h", "undeclared identifier", "HIP_R_8I", True)
    own = first_error(f"{tmp_path}/a/x.cu:5:1: fatal error: 'nvml.h' file not found\n",
                      tmp_path, "a/x.cu")
    assert (own.error_class, own.symbol, own.in_helper) == ("missing header", "nvml.h", False)
    nvcc = first_error("x.cu(12): error: identifier \"y\" is undefined\n", tmp_path, "x.cu")
    assert (nvcc.error_class, nvcc.symbol) == ("undeclared identifier", "y")
    driver = first_error("clang: error: no such file or directory: 'c'\n", tmp_path, "x.cu")
    assert (driver.error_class, driver.in_helper) == ("other", False)


def test_units_are_cuda_sources_and_programs_are_folders_or_mains(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    (repo / "one").mkdir(parents=True)
    (repo / "one" / "main.cu").write_text("int main() {}\n")
    (repo / "one" / "kernels.cpp").write_text("__global__ void k() {}\n")
    (repo / "one" / "plain.cpp").write_text("int f() { return 1; }\n")   # no CUDA: not a TU
    (repo / "many").mkdir()
    for name in ("a", "b"):
        (repo / "many" / f"{name}.cu").write_text("int main(void) { cudaFree(0); }\n")
    (repo / "many" / "shared.c").write_text("void g(void) { cudaDeviceSynchronize(); }\n")
    units = {(u.path, u.program, u.lang) for u in find_units(tmp_path, None)}
    assert units == {("one/main.cu", "one", "cu"), ("one/kernels.cpp", "one", "cu"),
                     ("many/a.cu", "many/a", "cu"), ("many/b.cu", "many/b", "cu"),
                     ("many/shared.c", "many/*", "c")}


def test_markdown_counts_only_valid_originals_and_compares() -> None:
    def unit(path: str, nvcc: bool, hip: bool | None) -> dict[str, object]:
        u = Unit("r", path, path, "cu", Compile(nvcc, 1.0),
                 {"hip-5.2": None if hip is None else Compile(
                     hip, 1.0, first_error="x.cu:1:1: error: unknown type name 'T'",
                     error_class="" if hip else "unknown type name", symbol="T")})
        from dataclasses import asdict
        return asdict(u)

    now = {"hipport": "new", "oracles": ["hip-5.2"], "seconds": 60.0,
           "units": [unit("a.cu", True, True), unit("b.cu", True, False),
                     unit("c.cu", False, None)]}
    old = dict(now, hipport="old", units=[unit("a.cu", True, False), unit("b.cu", True, False),
                                          unit("c.cu", False, None)])
    text = markdown(now, old)
    assert "| **all** | 3 | 2 | 1/2 (50 %) |" in text
    assert "| hip-5.2 | 0 | 1 | 1 | 0 |" in text
    assert "| 1 | unknown type name | `T` | no | r/b.cu |" in text


def test_closure_digest_follows_local_includes_only(tmp_path: Path) -> None:
    from benchmarks.realworld import closure_digest

    root = tmp_path.resolve()
    (root / "utils").mkdir()
    (root / "p").mkdir()
    tu = root / "p" / "x.cu"
    tu.write_text('#include "helper.h"\n#include <hip/hip_runtime.h>\nint main() {}\n')
    (root / "utils" / "helper.h").write_text('#include "inner.h"\n')
    (root / "utils" / "inner.h").write_text("int a;\n")
    (root / "p" / "other.h").write_text("int b;\n")
    first = closure_digest(root, tu, "hip-5.2")
    (root / "p" / "other.h").write_text("int c;\n")        # not included: same digest
    assert closure_digest(root, tu, "hip-5.2") == first
    assert closure_digest(root, tu, "rocm-6.4") != first   # another compiler
    (root / "utils" / "inner.h").write_text("int d;\n")    # included twice removed
    assert closure_digest(root, tu, "hip-5.2") != first
