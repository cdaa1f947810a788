"""Codes of the conversion core: input problems, renames, code rules, ledger."""
from __future__ import annotations

from hipport.diagnostics.model import Code, Severity

CORE_CODES = (
    Code("HP001", "input-parse-error", "The input has syntax the parser could not read; "
         "conversion was best effort around it.", Severity.WARNING),
    Code("HP002", "unreadable-input", "The file could not be read or is not source text "
         "(binary content); it was skipped.", Severity.ERROR),
    Code("HP003", "introduced-parse-error", "Converting would have introduced a parse error; "
         "the file was left unchanged.", Severity.ERROR),
    Code("HP004", "unstable-conversion", "Converting the converted file again changed it; "
         "the file was left unchanged (an internal error, please report it).", Severity.ERROR),
    Code("HP005", "overlapping-fix", "Two fixes overlapped; one was not applied.", Severity.WARNING),
    Code("HP006", "internal-error", "hipport failed on this file; it was left unchanged "
         "(please report it).", Severity.ERROR),
    Code("HP007", "semantic-fallback", "The semantic front end could not parse this file; "
         "the syntax front end was used instead.", Severity.WARNING),
    Code("HP008", "source-changed", "The file changed after hipport read it (another program "
         "wrote to it); it was left as it is now, not converted.", Severity.ERROR,
         "An in-place conversion replaces a file only if it still holds the bytes that were "
         "converted: same inode, size and modification time, same content, checked again "
         "after the replacement. Anything another program wrote meanwhile is kept. Run "
         "hipport again once the other program is done."),
    Code("HP009", "write-refused", "An in-place conversion left a read-only or hard-linked "
         "file unchanged (`--force` converts it).", Severity.ERROR,
         "Replacing a read-only file would silently undo a protection, and replacing a file "
         "with several hard links gives this name a new file while the other names keep "
         "the old text. hipport leaves such files alone unless `--force` is given; then a "
         "read-only file keeps its mode and a hard link is broken (the other names keep "
         "the CUDA original)."),
    Code("HP010", "backup-renamed", "The backup name NAME+SUFFIX was already taken; the "
         "original was kept under the first free numbered name instead.", Severity.INFO,
         "`--backup SUFFIX` never replaces an existing file (an earlier backup, or your "
         "own file that happens to have that name): the original goes to `NAME+SUFFIX.1`, "
         "`.2`, ... whichever is free first."),
    Code("HP101", "runtime-api", "CUDA runtime API name with a HIP equivalent.", Severity.INFO),
    Code("HP110", "driver-api", "CUDA driver API name with a HIP equivalent.", Severity.INFO),
    Code("HP120", "device-api", "CUDA device function, intrinsic or type with a HIP equivalent.",
         Severity.INFO),
    Code("HP121", "cooperative-groups-api", "Cooperative groups name with a HIP equivalent.",
         Severity.INFO),
    Code("HP200", "library-api", "CUDA library API name with a ROCm library equivalent.",
         Severity.INFO),
    Code("HP201", "cublas-api", "cuBLAS name with a hipBLAS equivalent.", Severity.INFO),
    Code("HP202", "cufft-api", "cuFFT name with a hipFFT equivalent.", Severity.INFO),
    Code("HP203", "curand-api", "cuRAND name with a hipRAND equivalent.", Severity.INFO),
    Code("HP204", "cusparse-api", "cuSPARSE name with a hipSPARSE equivalent.", Severity.INFO),
    Code("HP205", "cusolver-api", "cuSOLVER name with a hipSOLVER equivalent.", Severity.INFO),
    Code("HP206", "cub-api", "CUB name with a hipCUB equivalent.", Severity.INFO),
    Code("HP207", "nccl-api", "NCCL name; RCCL provides it.", Severity.INFO),
    Code("HP208", "nvrtc-api", "NVRTC name with a hipRTC equivalent.", Severity.INFO),
    Code("HP209", "nvtx-api", "NVTX name with a roctx equivalent.", Severity.INFO),
    Code("HP210", "cucomplex-api", "cuComplex name with a hip_complex equivalent.", Severity.INFO),
    Code("HP211", "cudnn-api", "cuDNN name with a MIOpen equivalent.", Severity.INFO),
    Code("HP212", "cublaslt-api", "cuBLASLt name with a hipBLASLt equivalent.", Severity.INFO),
    Code("HP301", "kernel-launch", "Kernel launch `<<<...>>>` rewritten as hipLaunchKernelGGL.",
         Severity.INFO),
    Code("HP302", "include", "CUDA header include rewritten to its HIP header.", Severity.INFO),
    Code("HP303", "duplicate-include", "Include made redundant by conversion removed.",
         Severity.INFO),
    Code("HP304", "warp-sync-mask-dropped", "Warp `_sync` intrinsic rewritten to HIP's "
         "mask-less form; the mask argument was dropped.", Severity.INFO),
    Code("HP305", "hip-symbol-wrapped", "Symbol argument wrapped in HIP_SYMBOL().",
         Severity.INFO),
    Code("HP306", "hip-runtime-include-added", "The file has kernel code but no runtime "
         "include (nvcc includes cuda_runtime.h implicitly; hipcc does not): "
         "#include <hip/hip_runtime.h> added.", Severity.INFO),
    Code("HP900", "unmapped-cuda-api", "CUDA-looking name that hipport's catalogue does not "
         "know; left unchanged.", Severity.WARNING),
    Code("HP901", "unsupported-cuda-api", "CUDA API with no HIP equivalent; left unchanged.",
         Severity.WARNING),
    Code("HP902", "deprecated-hip-api", "Converted to a HIP API that ROCm marks deprecated.",
         Severity.WARNING),
    Code("HP903", "removed-cuda-api", "CUDA API removed from CUDA itself; left unchanged.",
         Severity.WARNING),
    Code("HP904", "unsafe-rename", "Rename needs review (applied only with --unsafe-fixes).",
         Severity.WARNING),
    Code("HP905", "hip-target-too-new", "The HIP counterpart needs a newer ROCm than the "
         "target version; left unchanged.", Severity.WARNING),
)
