"""The ``roc:`` decisions for cuSOLVER -> rocSOLVER (`--roc`), beside the names
HIPIFY's ROC column gives (tools/catalogue/roc.py reads those).

rocSOLVER is no cuSOLVER look-alike: it works on a rocBLAS handle (its
handle, stream, status and enum types are rocBLAS's), it sizes and allocates
its workspace itself, so cuSOLVER's ``*_bufferSize`` queries have no twin
and its ``Workspace``/``Lwork`` arguments no parameter, and several routines
report no ``info``.  The prototypes compared are cusolverDn.h of CUDA 12.9
and rocSOLVER 3.28 (ROCm 6.4) and 3.32 (ROCm 7.2), which agree on every
routine here.  Each decision is one ``roc:`` value as mappings/*.yaml
writes it (a name, or a mapping with ``name``/``status``/``applicability``/
``rule``/``note``); its range still comes from the header sets.
"""
from __future__ import annotations

import re
from typing import Any

from hipport.rules.rocsolver_arguments import ROUTINES

Decision = dict[str, Any]

BUFFER_SIZE_NOTE = ("rocSOLVER has no workspace-size query: it sizes and allocates its "
                    "workspace itself (rocblas_set_workspace hands it memory of your own); "
                    "delete the query and the buffer it sized, the {routine} call takes no "
                    "workspace")

# cuSOLVER's handle, stream and status are rocBLAS's under rocSOLVER.
_RENAMES: dict[str, str] = {
    "cusolverDnHandle_t": "rocblas_handle",
    "cusolverDnCreate": "rocblas_create_handle",
    "cusolverDnDestroy": "rocblas_destroy_handle",
    "cusolverDnSetStream": "rocblas_set_stream",
    "cusolverDnGetStream": "rocblas_get_stream",
    "cusolverStatus_t": "rocblas_status",
    "cusolver_int_t": "rocblas_int",
    "CUSOLVER_STATUS_SUCCESS": "rocblas_status_success",
    "CUSOLVER_STATUS_NOT_INITIALIZED": "rocblas_status_invalid_handle",
    "CUSOLVER_STATUS_ALLOC_FAILED": "rocblas_status_memory_error",
    "CUSOLVER_STATUS_INVALID_VALUE": "rocblas_status_invalid_value",
    "CUSOLVER_STATUS_ARCH_MISMATCH": "rocblas_status_arch_mismatch",
    "CUSOLVER_STATUS_INTERNAL_ERROR": "rocblas_status_internal_error",
    "CUSOLVER_STATUS_NOT_SUPPORTED": "rocblas_status_not_implemented",
    "cusolverEigMode_t": "rocblas_evect",
    "CUSOLVER_EIG_MODE_NOVECTOR": "rocblas_evect_none",
    "CUSOLVER_EIG_MODE_VECTOR": "rocblas_evect_original",
    "cusolverEigRange_t": "rocblas_erange",
    "CUSOLVER_EIG_RANGE_ALL": "rocblas_erange_all",
    "CUSOLVER_EIG_RANGE_I": "rocblas_erange_index",
    "CUSOLVER_EIG_RANGE_V": "rocblas_erange_value",
    "cusolverEigType_t": "rocblas_eform",
    "CUSOLVER_EIG_TYPE_1": "rocblas_eform_ax",
    "CUSOLVER_EIG_TYPE_2": "rocblas_eform_abx",
    "CUSOLVER_EIG_TYPE_3": "rocblas_eform_bax",
}
# Statuses rocSOLVER never returns: HIPIFY's rocblas_status_not_implemented
# would make `status == CUSOLVER_STATUS_ZERO_PIVOT` test for something else.
_NO_STATUS = {
    "CUSOLVER_STATUS_EXECUTION_FAILED": "a failed kernel launch is the HIP error of the "
                                        "stream (hipGetLastError), not a rocblas_status",
    "CUSOLVER_STATUS_MAPPING_ERROR": "rocBLAS has no texture mapping to fail",
    "CUSOLVER_STATUS_ZERO_PIVOT": "rocSOLVER reports a zero pivot in info (> 0), not in the "
                                  "status",
}
# Routines whose calls differ by more than deleted arguments.
_BY_HAND = {
    "syevd": "{roc} takes an array E of n elements (workspace for the off-diagonal) where "
             "{cuda} takes work and lwork: pass E, drop lwork",
    "heevd": "{roc} takes an array E of n elements (workspace for the off-diagonal) where "
             "{cuda} takes work and lwork: pass E, drop lwork",
    "gesvd": "{roc} takes rocblas_svect values ('A' -> rocblas_svect_all, 'S' -> "
             "rocblas_svect_singular, 'O' -> rocblas_svect_overwrite, 'N' -> "
             "rocblas_svect_none) where {cuda} takes characters, an array E of min(m, n) - 1 "
             "elements and a rocblas_workmode (rocblas_outofplace) where it takes work, "
             "lwork and rwork",
}
_ROUTINE = re.compile(r"cusolverDn([SDCZ])([A-Za-z]+?)(_bufferSize)?")


def _roc_routine(routine: str) -> str:
    """potrsBatched -> potrs_batched."""
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", routine).lower()


def decide(cuda: str) -> Decision | None:
    """The roc: value for ``cuda``, or None for a name decided nowhere here
    (left to HIPIFY's column, or a gap that names hipSOLVER's function)."""
    if cuda in _RENAMES:
        return {"name": _RENAMES[cuda]}
    if cuda in _NO_STATUS:
        return {"status": "unsupported", "note": _NO_STATUS[cuda]}
    m = _ROUTINE.fullmatch(cuda)
    if m is None:
        return None
    kind, routine, query = m.groups()
    known = routine in ROUTINES or routine in _BY_HAND or routine == "potrfBatched"
    if query:
        return {"status": "unsupported", "note": BUFFER_SIZE_NOTE.format(
            routine=f"rocsolver_{kind.lower()}{_roc_routine(routine)}" if known
            else "rocSOLVER")}
    if not known:
        return None
    roc = f"rocsolver_{kind.lower()}{_roc_routine(routine)}"
    decision: Decision = {"name": roc}
    if routine in ROUTINES:
        decision["rule"] = "rocsolver-arguments"
    notes = []
    if routine in _BY_HAND:
        notes.append(_BY_HAND[routine].format(roc=roc, cuda=cuda))
    # Complex routines (C, Z) take rocBLAS's complex types, which are HIP's in a
    # converted file: hipport defines ROCM_MATHLIBS_API_USE_HIP_COMPLEX before
    # its first rocSOLVER include (hipport/rules/includes.py).
    if notes:
        decision["applicability"] = "unsafe"
        decision["note"] = "; ".join(notes)
    return decision


def decisions(names: list[str]) -> dict[str, Decision]:
    """cuda -> roc: value, for the catalogue's cuSOLVER names decided here."""
    out: dict[str, Decision] = {}
    for cuda in names:
        decision = decide(cuda)
        if decision is not None:
            out[cuda] = decision
    return out
