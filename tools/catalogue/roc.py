"""The ``roc:`` targets of the catalogue (`hipport convert --roc`): cuBLAS to
rocBLAS, cuRAND to rocRAND, cuSPARSE to rocSPARSE and cuSOLVER to rocSOLVER,
the ROCm libraries themselves rather than
their hip* wrappers.

Facts come from HIPIFY's ``docs/tables/*_supported_by_HIP_and_ROC.md`` (its
ROC column, given on the command line); a name is kept only if the roc
library's headers of some header set on this machine declare it, and it is
dated from them like the hip names (``evidence.py``: ``rocm_version``).  A
function whose roc prototype takes other arguments than CUDA's (another
count, or a parameter no argument of CUDA's type converts to once the
catalogue's roc types are put in) is ``applicability: unsafe`` with a note
saying what differs: the call is left for a person (HP904) instead of
failing to compile renamed.  ``CURATED`` holds what a person decided
(what to do instead, or that there is no counterpart); it wins.

    python -m tools.catalogue.roc --hipify-tables HIPIFY/docs/tables \\
        --cuda-include .toolchain/cuda-extra/include [--write]

Adding a library is a line in ``ROC_LIBRARIES`` and its header folder in
``hip_headers.LIBRARY_PATHS``; cuSPARSE's and cuSOLVER's hand decisions are
in roc_sparse.py and roc_solver.py.
"""
from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from .evidence import Evidence, evidence_for
from .roc_solver import decide as solver_decision
from .roc_sparse import CURATED as SPARSE_CURATED
from .signatures import (
    Declared,
    Prototype,
    cuda_files,
    header_declarations,
    hip_files,
    stricter,
)

REPO = Path(__file__).resolve().parents[2]

# catalogue library -> (HIPIFY table stem, roc library key of mappings/rocm-libraries.yaml)
ROC_LIBRARIES: dict[str, tuple[str, str]] = {
    "cublas": ("CUBLAS_API_supported_by_HIP_and_ROC", "rocblas"),
    "curand": ("CURAND_API_supported_by_HIP_and_ROC", "rocrand"),
    "cusparse": ("CUSPARSE_API_supported_by_HIP_and_ROC", "rocsparse"),
    "cusolver": ("CUSOLVER_API_supported_by_HIP_and_ROC", "rocsolver"),
}
# Where a call that takes other arguments is documented (default: rocBLAS/rocRAND).
DOCUMENTATION = {"cusparse": "its rocSPARSE documentation",
                 "cusolver": "its rocSOLVER documentation"}

_GEMM_EX = ("{roc} also takes the output matrix D with its type and leading dimension (pass "
            "C, its type and ldc again to compute in place), a rocblas_gemm_algo "
            "(rocblas_gemm_algo_standard), a solution index (0) and flags "
            "(rocblas_gemm_flags_none); its data types are rocblas_datatype "
            "(rocblas_datatype_f32_r for CUDA_R_32F), its compute type too "
            "(rocblas_datatype_f32_r for CUBLAS_COMPUTE_32F), and alpha and beta point to "
            "values of the compute type")
# What a person decided: the roc mapping written as it is (its evidence range
# still comes from the headers when it has a name).
CURATED: dict[str, dict[str, Any]] = {
    "cublasGemmEx": {"name": "rocblas_gemm_ex", "applicability": "unsafe",
                     "note": _GEMM_EX.format(roc="rocblas_gemm_ex")},
    "cublasGemmBatchedEx": {"name": "rocblas_gemm_batched_ex", "applicability": "unsafe",
                            "note": _GEMM_EX.format(roc="rocblas_gemm_batched_ex")},
    "cublasGemmStridedBatchedEx": {
        "name": "rocblas_gemm_strided_batched_ex", "applicability": "unsafe",
        "note": _GEMM_EX.format(roc="rocblas_gemm_strided_batched_ex")
        + "; D takes its own stride after ldd"},
}
# cuRAND's default device state is XORWOW, rocRAND's rocrand_state_xorwow: HIPIFY
# lists no roc name for it, but the state is opaque to the code that passes it
# to curand_init and curand_uniform & co. (rocrand_init, rocrand_uniform).
CURATED.update({name: {"name": "rocrand_state_xorwow"} for name in (
    "curandState", "curandState_t", "curandStateXORWOW", "curandStateXORWOW_t")})


_SOLVER = ("rocBLAS has no LAPACK routines: rocSOLVER has {name} (librocsolver, "
           "rocsolver/rocsolver.h), which takes the pivots and infos as rocblas_int arrays")
for _p in "SDCZ":
    for _what in ("getrf", "getri", "getrs", "geqrf", "gels"):
        CURATED[f"cublas{_p}{_what}Batched"] = {"status": "unsupported", "note": _SOLVER.format(
            name=f"rocsolver_{_p.lower()}{_what}_batched")}
    if _p in "CZ":
        CURATED[f"cublas{_p}gemm3m"] = {
            "status": "unsupported",
            "note": f"rocBLAS has no 3M (Gauss) variant: rocblas_{_p.lower()}gemm computes the "
                    "same product with the usual algorithm"}
_COMPUTE = ("rocBLAS's *_ex calls take the compute type as a rocblas_datatype "
            "(rocblas_datatype_f16_r, _f32_r, _f64_r, _i32_r), with no pedantic or fast variants; "
            "those calls are converted by hand (HP904)")
CURATED.update({name: {"status": "unsupported", "note": _COMPUTE} for name in (
    "CUBLAS_COMPUTE_16F", "CUBLAS_COMPUTE_16F_PEDANTIC", "CUBLAS_COMPUTE_32F_FAST_16BF",
    "CUBLAS_COMPUTE_32F_FAST_16F", "CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_COMPUTE_32F_PEDANTIC",
    "CUBLAS_COMPUTE_32I", "CUBLAS_COMPUTE_32I_PEDANTIC", "CUBLAS_COMPUTE_64F",
    "CUBLAS_COMPUTE_64F_PEDANTIC")})
_MATH = ("rocBLAS chooses its matrix-core kernels itself; its math modes are "
         "rocblas_default_math and rocblas_xf32_xdl_math_op (TF32-like) only")
CURATED.update({name: {"status": "unsupported", "note": _MATH} for name in (
    "CUBLAS_TENSOR_OP_MATH", "CUBLAS_PEDANTIC_MATH",
    "CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION")})
CURATED["CUBLAS_STATUS_LICENSE_ERROR"] = {"status": "unsupported",
                                          "note": "rocBLAS has no licence check"}
_STATUS = ("rocrand_status has no such value: test `!= ROCRAND_STATUS_SUCCESS`, or compare "
           "with ROCRAND_STATUS_INTERNAL_ERROR")
CURATED.update({name: {"status": "unsupported", "note": _STATUS} for name in (
    "CURAND_STATUS_ARCH_MISMATCH", "CURAND_STATUS_INITIALIZATION_FAILED",
    "CURAND_STATUS_PREEXISTING_FAILURE")})
CURATED.update({name: {"status": "unsupported", "note": "rocRAND's direction vectors are "
                       "plain arrays: rocrand_get_direction_vectors32/64 give a const unsigned "
                       "int*/const unsigned long long* to them"}
                for name in ("curandDirectionVectors32_t", "curandDirectionVectors64_t")})
CURATED.update({name: {"status": "unsupported", "note": "rocRAND's Sobol states are templates: "
                       f"declare the state as {name}_t (rocrand_state_{name[11:].lower()})"}
                for name in ("curandStateSobol32", "curandStateSobol64",
                             "curandStateScrambledSobol32", "curandStateScrambledSobol64")})
CURATED["CURAND_VERSION"] = {"status": "unsupported", "note": "ROCRAND_VERSION is rocRAND's own "
                             "version (major * 100000 + minor * 100 + patch), not cuRAND's"}
CURATED["CURAND_RNG_TEST"] = {"status": "unsupported", "note": "rocRAND has no test generator"}
# cuSPARSE: where HIPIFY's column is wrong (tools/catalogue/roc_sparse.py);
# cuSOLVER: rocSOLVER's own shape of each routine (tools/catalogue/roc_solver.py).
CURATED.update(SPARSE_CURATED)
DECIDERS: dict[str, Callable[[str], dict[str, Any] | None]] = {"cusolver": solver_decision}

# Names HIPIFY's tables lack that a person found in the roc headers: checked
# like HIPIFY's (declared in a header set, same arguments).
EXTRA: dict[str, str] = {
    "cublasSetWorkspace": "rocblas_set_workspace",
    "CUBLAS_TF32_TENSOR_OP_MATH": "rocblas_xf32_xdl_math_op",
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": "rocblas_gemm_algo_standard",
    "CUBLAS_GEMM_DFALT_TENSOR_OP": "rocblas_gemm_algo_standard",
    "curand4": "rocrand4",
    "CURAND_H_": "ROCRAND_H_",
    "CURAND_KERNEL_H_": "ROCRAND_KERNEL_H_",
}


def derived(cuda: str, hipify: dict[str, str]) -> str | None:
    """A roc name by rocBLAS's own convention where HIPIFY gives none: the
    64-bit-index variant of a function is its name with `_64` (cublasSsymm_64,
    cublasSsymm_v2_64: rocblas_ssymm_64); the headers decide whether it exists."""
    if cuda.endswith("_64"):
        base = hipify.get(cuda[:-3]) or hipify.get(cuda[:-3] + "_v2")
        if base is not None and not base.endswith("_64"):
            return base + "_64"
    return None


# rocBLAS's complex types, and the macro that makes them HIP's.
COMPLEX = ("rocblas_float_complex", "rocblas_double_complex")
HIP_COMPLEX_MACRO = "ROCM_MATHLIBS_API_USE_HIP_COMPLEX"


def read_roc_column(path: Path) -> dict[str, str]:
    """CUDA name -> the ROC column's name, of one HIPIFY table (HIPIFY's
    "experimental" mark, on the 64-bit-index API, says how sure HIPIFY is of
    its own support; the headers decide here)."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|`"):
            continue
        cols = [c.strip().strip("`").strip() for c in line.split("|")[1:-1]]
        if len(cols) < 17 or not cols[11]:
            continue
        out[cols[0]] = cols[11]
    return out


@dataclass
class Decided:
    """What the generator found for one library."""

    written: dict[str, dict[str, Any] | str] = field(default_factory=dict)
    undeclared: dict[str, str] = field(default_factory=dict)  # cuda -> HIPIFY's roc name
    unsafe: dict[str, str] = field(default_factory=dict)  # cuda -> why


def _arity_note(cuda: str, roc: str, cuda_protos: list[Prototype],
                roc_protos: list[Prototype],
                documentation: str = "the rocBLAS/rocRAND documentation of it") -> str:
    mine = "/".join(sorted({str(len(p)) for p in cuda_protos}))
    theirs = "/".join(sorted({str(len(p)) for p in roc_protos}))
    return (f"{roc} takes {theirs} arguments where {cuda} takes {mine}: rewrite the call "
            f"by hand (see {documentation})")


def signature_note(cuda: str, roc: str, names: dict[str, str], cuda_decl: Declared,
                   roc_decl: Declared,
                   documentation: str = "the rocBLAS/rocRAND documentation of it") -> str | None:
    """Why a call of ``cuda`` does not compile renamed to ``roc``; None when
    it does (or when either prototype is not one this scanner models)."""
    cuda_protos = cuda_decl.prototypes_of(cuda)
    roc_protos = roc_decl.prototypes_of(roc)
    if not cuda_protos or not roc_protos or len(cuda_protos) > 1:
        return None
    proto = cuda_protos[0]
    same = [p for p in roc_protos if len(p) == len(proto)]
    if not same:
        return _arity_note(cuda, roc, cuda_protos, roc_protos, documentation)
    found = [stricter((cuda, roc, ""), proto, p, names, cuda_decl, roc_decl) for p in same]
    if not all(found):
        return None
    if all(any(c in s.hip_type for c in COMPLEX) for s in found[0]):
        # The converted file defines HIP_COMPLEX_MACRO before its first rocBLAS or
        # rocSOLVER include (hipport/rules/includes.py), so that rocBLAS's complex
        # types are HIP's: the call compiles renamed.
        return None
    what = ", ".join(f"argument {s.index + 1} as `{s.hip_type}` where {cuda} takes "
                     f"`{s.cuda_type}`" for s in found[0])
    casts = all(s.cast for s in found[0])
    return f"{roc} declares {what}: " + (
        "cast the argument" if casts else "convert the argument by hand")


def decide(library: str, entries: list[dict[str, Any]], hipify: dict[str, str],
           ev: Evidence, cuda_dirs: list[Path]) -> Decided:
    _, roc_library = ROC_LIBRARIES[library]
    out = Decided()
    cuda_decl = header_declarations(cuda_files(library, cuda_dirs))
    # The prototypes of the newest release (the default target).
    newest = list(ev.sets[-1].roots)
    roc_decl = header_declarations(hip_files(roc_library, newest))
    roc_decl.update(header_declarations(hip_files("hip", newest)))
    # hipcc compiles C++17, where rocBLAS's complex types are classes of its
    # own (rocblas_complex_num<T>); the scanner read the typedefs to HIP's of
    # the branch under ROCM_MATHLIBS_API_USE_HIP_COMPLEX, which is off.
    for complex_type in COMPLEX:
        roc_decl.typedefs.pop(complex_type, None)
    # Type names as the converted code spells them: the roc types where the
    # catalogue has them (the run's own table), HIP's for the rest (cudaStream_t).
    from hipport.table import bundled_table
    from hipport.table.roc import for_roc
    names: dict[str, str] = {}
    for m in bundled_table():
        if m.kind not in ("type", "enum"):
            continue
        target = hipify.get(m.cuda) or for_roc(m).hip if m.library in ROC_LIBRARIES else m.hip
        if target:
            names[m.cuda] = target
    for entry in entries:
        cuda = entry["cuda"]
        curated = CURATED.get(cuda)
        if curated is None and library in DECIDERS:
            curated = DECIDERS[library](cuda)
        name: str | None = curated.get("name") if curated else \
            hipify.get(cuda) or EXTRA.get(cuda) or derived(cuda, hipify)
        if curated is not None and name is None:
            out.written[cuda] = dict(curated)
            continue
        if name is None:
            continue
        rng = ev.name(roc_library, name)
        if not rng.present:
            out.undeclared[cuda] = name
            continue
        versions, evidence = rng.versions(), rng.note(name)
        roc: dict[str, Any] = dict(curated) if curated else {"name": name}
        if rng.deprecated is not None:
            roc["status"] = "deprecated"
        if curated is None and entry.get("kind") == "function":
            why = signature_note(cuda, name, names, cuda_decl, roc_decl,
                                 *([DOCUMENTATION[library]] if library in DOCUMENTATION else []))
            if why is not None:
                roc["applicability"] = "unsafe"
                roc["note"] = why
                out.unsafe[cuda] = why
        if evidence:
            roc["note"] = "; ".join(p for p in (roc.get("note"), evidence) if p)
        if versions:
            roc["rocm_version"] = versions
        out.written[cuda] = roc if len(roc) > 1 else name
    return out


def decide_headers(entries: list[dict[str, Any]], ev: Evidence) -> Decided:
    """The header entries' roc mappings (chosen by hand in mappings/headers.yaml,
    with their guard and C++-only mark), dated from the header sets."""
    roc_of = {lib: key for lib, (_, key) in ROC_LIBRARIES.items()}
    out = Decided()
    for entry in entries:
        roc = entry.get("roc")
        if roc is None or entry.get("library") not in roc_of:
            continue
        fields: dict[str, Any] = {"name": roc} if isinstance(roc, str) else dict(roc)
        if "name" not in fields:
            continue  # no roc header (cusolverSp.h): nothing to date
        rng = ev.header(roc_of[entry["library"]], fields["name"])
        if not rng.present:
            out.undeclared[entry["cuda"]] = fields["name"]
            continue
        fields.pop("rocm_version", None)
        if rng.versions():
            fields["rocm_version"] = rng.versions()
        evidence = rng.note(None)
        if evidence:
            fields["note"] = evidence
        out.written[entry["cuda"]] = fields if len(fields) > 1 else fields["name"]
    return out


# --- writing --------------------------------------------------------------------

_ENTRY = r"^- cuda: {name}\n((?:  .*\n)*)"


def _roc_block(roc: dict[str, Any] | str) -> str:
    if isinstance(roc, str):
        return f"  roc: {roc}\n"
    lines = ["  roc:\n"]
    for key in ("name", "status", "applicability", "rule", "cxx_only", "guard", "note",
                "rocm_version"):
        if key not in roc:
            continue
        value = roc[key]
        if key == "rocm_version":
            lines.append("    rocm_version:\n")
            lines += [f"      {k}: '{v}'\n" for k, v in sorted(value.items())]
        elif key == "cxx_only":
            lines.append(f"    cxx_only: {'true' if value else 'false'}\n")
        elif key == "note":
            lines.append(f"    note: {json.dumps(value)}\n")
        else:
            lines.append(f"    {key}: {value}\n")
    return "".join(lines)


def _without_roc(block: str) -> str:
    kept: list[str] = []
    inside = False
    for line in block.splitlines(keepends=True):
        if line.startswith("  roc:"):
            inside = True
            continue
        if inside and line.startswith("    "):
            continue
        inside = False
        kept.append(line)
    return "".join(kept)


def write(path: Path, decided: Decided) -> int:
    """Puts the ``roc:`` blocks of ``decided`` into ``path`` (text edits:
    the file keeps its layout; a block written before is replaced)."""
    text = path.read_text(encoding="utf-8")
    changed = 0
    for cuda, roc in decided.written.items():
        m = re.search(_ENTRY.format(name=re.escape(cuda)), text, re.M)
        if m is None:
            continue
        block = _without_roc(m.group(1)) + _roc_block(roc)
        if block != m.group(1):
            changed += 1
            text = text[:m.start(1)] + block + text[m.end(1):]
    yaml.safe_load(text)  # still YAML
    path.write_text(text, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.catalogue.roc",
                                 description="Propose the roc: targets of the catalogue "
                                 "(--roc) from HIPIFY's tables, verified in the headers.")
    ap.add_argument("--hipify-tables", type=Path, required=True,
                    help="HIPIFY's docs/tables folder")
    ap.add_argument("--cuda-include", action="append", type=Path, required=True,
                    help="CUDA include dir with the library headers; repeatable")
    ap.add_argument("--write", action="store_true", help="write the roc: blocks")
    args = ap.parse_args(argv)
    ev = evidence_for(REPO)
    print("header sets: " + ", ".join(s.label for s in ev.sets))
    for library, (table, _) in ROC_LIBRARIES.items():
        hipify = read_roc_column(args.hipify_tables / f"{table}.md")
        path = REPO / "mappings" / "libraries" / f"{library}.yaml"
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]
        decided = decide(library, entries, hipify, ev, args.cuda_include)
        with_hip = sum(1 for e in entries if "hip" in e)
        print(f"{library}: {len(entries)} entries, {with_hip} with a hip name; HIPIFY names "
              f"{len(hipify)} roc targets; {len(decided.written)} roc targets written "
              f"({len(decided.unsafe)} unsafe), {len(decided.undeclared)} HIPIFY names no "
              "header set declares")
        for cuda, name in sorted(decided.undeclared.items()):
            print(f"  undeclared: {cuda} -> {name}")
        for cuda, why in sorted(decided.unsafe.items()):
            print(f"  unsafe: {cuda}: {why}")
        if args.write:
            print(f"  {write(path, decided)} entries changed in {path.relative_to(REPO)}")
    path = REPO / "mappings" / "headers.yaml"
    decided = decide_headers(yaml.safe_load(path.read_text(encoding="utf-8"))["entries"], ev)
    print(f"headers: {len(decided.written)} roc headers dated, {len(decided.undeclared)} no "
          "header set has: " + ", ".join(sorted(decided.undeclared.values())))
    if args.write:
        print(f"  {write(path, decided)} entries changed in {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
