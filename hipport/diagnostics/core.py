"""Codes of the conversion core: input problems, renames, code rules, ledger."""
from __future__ import annotations

from dataclasses import replace

from hipport.diagnostics.model import (
    Category,
    Code,
    FileEffect,
    Fixable,
    Ledger,
    Severity,
    Work,
)


def _rename(code: str, name: str, summary: str) -> Code:
    return Code(code, name, summary, Severity.INFO, category=Category.RENAME, reference=True,
                fixable=Fixable.EITHER)


def _rewrite(code: str, name: str, summary: str, reference: bool = True) -> Code:
    return Code(code, name, summary, Severity.INFO, category=Category.CODE_RULE,
                reference=reference, fixable=Fixable.SAFE)


def _ledger(code: str, name: str, summary: str, ledger: Ledger,
            fixable: Fixable = Fixable.NEVER) -> Code:
    return Code(code, name, summary, Severity.WARNING, category=Category.LEDGER, reference=True,
                ledger=ledger, fixable=fixable)


_TOOL = (
    Code("HP001", "input-parse-error", "The input has syntax the parser could not read; "
         "conversion was best effort around it.", Severity.WARNING, work=Work.REVIEW),
    Code("HP002", "unreadable-input", "The file could not be read or is not source text "
         "(binary content); it was skipped.", Severity.ERROR,
         effect=FileEffect.SKIPPED),
    Code("HP003", "introduced-parse-error", "Converting would have introduced a parse error; "
         "the file was left unchanged.", Severity.ERROR,
         effect=FileEffect.FAILED),
    Code("HP004", "unstable-conversion", "Converting the converted file again changed it; "
         "the file was left unchanged (an internal error, please report it).", Severity.ERROR,
         effect=FileEffect.FAILED),
    Code("HP005", "overlapping-fix", "Two fixes overlapped; one was not applied.",
         Severity.WARNING, work=Work.REVIEW),
    Code("HP006", "internal-error", "hipport failed on this file; it was left unchanged "
         "(please report it).", Severity.ERROR,
         effect=FileEffect.FAILED),
    Code("HP007", "semantic-fallback", "The semantic front end could not parse this file; "
         "the syntax front end was used instead.", Severity.WARNING),
    Code("HP008", "source-changed", "The file changed after hipport read it (another program "
         "wrote to it); it was left as it is now, not converted.", Severity.ERROR,
         "An in-place conversion replaces a file only if it still holds the bytes that were "
         "converted: same inode, size and modification time, same content, checked again "
         "after the replacement. Anything another program wrote meanwhile is kept. Run "
         "hipport again once the other program is done.", effect=FileEffect.FAILED, work=Work.NONE),
    Code("HP009", "write-refused", "An in-place conversion left a read-only or hard-linked "
         "file unchanged (`--force` converts it).", Severity.ERROR,
         "Replacing a read-only file would silently undo a protection, and replacing a file "
         "with several hard links gives this name a new file while the other names keep "
         "the old text. hipport leaves such files alone unless `--force` is given; then a "
         "read-only file keeps its mode and a hard link is broken (the other names keep "
         "the CUDA original).", effect=FileEffect.FAILED, work=Work.NONE),
    Code("HP010", "backup-renamed", "The backup name NAME+SUFFIX was already taken; the "
         "original was kept under the first free numbered name instead.", Severity.INFO,
         "`--backup SUFFIX` never replaces an existing file (an earlier backup, or your "
         "own file that happens to have that name): the original goes to `NAME+SUFFIX.1`, "
         "`.2`, ... whichever is free first."),
    Code("HP011", "fix-withheld", "A rewrite was not applied: with it the converted text "
         "would not parse. The rest of the file is converted.", Severity.ERROR,
         "hipport checks every converted file with its parser and refuses an output that "
         "parses worse than the input (HP003). Where the rewrites of one code alone made the "
         "difference, those are left out and the others kept, instead of leaving the whole "
         "file in CUDA: each place is reported with this code and stays as it was written. "
         "Seen with a CUDA version test resolved inside a parameter list (`#if CUDA_VERSION >= "
         "11040` before a parameter, HP309), which the parser reads differently once it is a "
         "constant. Convert those places by hand.", work=Work.BREAKS_BUILD),
)

_RENAMES = (
    _rename("HP101", "runtime-api", "CUDA runtime API name with a HIP equivalent."),
    _rename("HP110", "driver-api", "CUDA driver API name with a HIP equivalent."),
    _rename("HP120", "device-api", "CUDA device function, intrinsic or type with a HIP "
            "equivalent."),
    _rename("HP121", "cooperative-groups-api", "Cooperative groups name with a HIP equivalent."),
    _rename("HP200", "library-api", "CUDA library API name with a ROCm library equivalent."),
    _rename("HP201", "cublas-api", "cuBLAS name with a hipBLAS equivalent."),
    _rename("HP202", "cufft-api", "cuFFT name with a hipFFT equivalent."),
    _rename("HP203", "curand-api", "cuRAND name with a hipRAND equivalent."),
    _rename("HP204", "cusparse-api", "cuSPARSE name with a hipSPARSE equivalent."),
    _rename("HP205", "cusolver-api", "cuSOLVER name with a hipSOLVER equivalent."),
    _rename("HP206", "cub-api", "CUB name with a hipCUB equivalent."),
    _rename("HP207", "nccl-api", "NCCL name; RCCL provides it."),
    _rename("HP208", "nvrtc-api", "NVRTC name with a hipRTC equivalent."),
    _rename("HP209", "nvtx-api", "NVTX name with a roctx equivalent."),
    _rename("HP210", "cucomplex-api", "cuComplex name with a hip_complex equivalent."),
    _rename("HP211", "cudnn-api", "cuDNN name with a MIOpen equivalent."),
    _rename("HP212", "cublaslt-api", "cuBLASLt name with a hipBLASLt equivalent."),
    Code("HP218", "miopen-lacks", "cuDNN call with a layout, data type or mode MIOpen lacks; "
         "left unchanged.", Severity.WARNING,
         "MIOpen describes tensors in NCHW, or in NHWC through strides, and has no vectorised "
         "int8 layout (`CUDNN_TENSOR_NCHW_VECT_C`); its only convolution mode is cuDNN's "
         "`CUDNN_CROSS_CORRELATION` (no filter-flipping `CUDNN_CONVOLUTION`), and it "
         "accumulates convolutions in float (no half or double compute type); it has no swish "
         "activation, and its activations and max pooling no NaN-propagation option. A cuDNN "
         "call asking for one of these is left as it is (one whose layout or mode is a "
         "variable is left too, as HP904, since hipport cannot read which it holds): rewrite "
         "it for a form MIOpen has (flip the filter for a true convolution, convert "
         "int8x4/int8x32 data to plain int8).",
         category=Category.RENAME, reference=True, ledger=Ledger.UNSUPPORTED),
)

_CODE_RULES = (
    _rewrite("HP301", "kernel-launch", "Kernel launch `<<<...>>>` rewritten as "
             "hipLaunchKernelGGL."),
    _rewrite("HP302", "include", "CUDA header include rewritten to its HIP header."),
    _rewrite("HP303", "duplicate-include", "Include made redundant by conversion removed.",
             reference=False),
    _rewrite("HP304", "warp-sync-mask-dropped", "Warp `_sync` intrinsic rewritten to HIP's "
             "mask-less form; the mask argument was dropped."),
    _rewrite("HP305", "hip-symbol-wrapped", "Symbol argument wrapped in HIP_SYMBOL()."),
    _rewrite("HP306", "hip-runtime-include-added", "The file has kernel code, or is a .cu "
             "file or header that uses the runtime API, but has no runtime include (nvcc "
             "includes cuda_runtime.h implicitly; hipcc does not): #include "
             "<hip/hip_runtime.h> added.", reference=False),
    _rewrite("HP307", "half2-brace-assignment", "Braced list assigned to a `__half2` (ambiguous "
             "in HIP): the type was named, `h2 = __half2{a, b}`.", reference=False),
    _rewrite("HP308", "cuda-header-guard-test", "A test of a CUDA header's include guard "
             "(`#ifdef CUBLAS_API_H_`) rewritten to test a macro its HIP header defines (its "
             "include guard, or for a `#pragma once` header another macro it defines)."),
    Code("HP309", "cuda-version-test-resolved", "A CUDA version test in a conditional "
         "directive (`#if CUDART_VERSION >= 11020`) answered for the CUDA release given by "
         "--assume-cuda-version (default 12.0): replaced by its value, the original kept in a "
         "comment (with --strategy compat: left as it is, the compat header defines the "
         "macros).", Severity.INFO,
         "hipcc defines none of CUDA's version macros, so the test would silently take the "
         "branch for \"no CUDA\". The rewrite strategy replaces the test by its value and "
         "keeps the original in a comment (`#if 1 // CUDA 12.0 assumed: #if CUDART_VERSION >= "
         "11020`); the finding is listed even though its fix is applied, since it chose a "
         "branch for you. The compat strategy leaves the line as it is: the compat header "
         "defines `CUDART_VERSION`, `CUDA_VERSION`, `__CUDACC_VER_MAJOR__` and "
         "`__CUDACC_VER_MINOR__` for that release in the AMD build (not "
         "`__CUDACC_VER_BUILD__`, whose value is not known). See docs/preprocessor.md.",
         category=Category.CODE_RULE, fixable=Fixable.SAFE, announced=True),
    _rewrite("HP310", "compat-header-included", "`--strategy compat`: the generated compat "
             "header is included and the CUDA toolkit includes are hidden from the AMD build "
             "(`#if !defined(__HIP_PLATFORM_AMD__)`); the NVIDIA build sees what it saw "
             "before.", reference=False),
    Code("HP311", "compat-header-stale", "A CUDA name the code uses is not mapped by the "
         "compat header (a name added since the header was generated); the AMD build would "
         "not compile.", Severity.WARNING,
         "The compat header (`hipport convert --strategy compat`) maps exactly the names the "
         "tree used when it was generated. `hipport check --policy compat` flags a name used "
         "since then; re-run `hipport convert --strategy compat --in-place` to regenerate "
         "the header.", category=Category.CODE_RULE, work=Work.BREAKS_BUILD),
    _rewrite("HP312", "launch-chevrons-joined", "Kernel launch written with spaced chevrons "
             "(`k << <grid, block >> > (args)`, which nvcc accepts; clang, so hipcc, reads only "
             "the `<<<` and `>>>` tokens): the chevrons joined.", reference=False),
    Code("HP317", "cuda-arch-test-resolved", "An architecture threshold in a conditional "
         "directive (`#if __CUDA_ARCH__ >= 530`) answered for AMD GPUs: true in the device "
         "pass where AMD GPUs have what the threshold asks for (sm_70 and older), false "
         "where they do not; the original kept in a comment.", Severity.INFO,
         "hipcc defines no `__CUDA_ARCH__`, so `__CUDA_ARCH__ >= 530` is 0 in every pass and "
         "the AMD device pass silently compiles the branch meant for the host or for old "
         "GPUs (often a stub); `__HIP_DEVICE_COMPILE__` (what `#ifdef __CUDA_ARCH__` becomes) "
         "is 1 in the device pass, so comparing it with 530 is as wrong. The rewrite answers "
         "each comparison for both passes: `#if __CUDA_ARCH__ >= 530` becomes `#if "
         "defined(__HIP_DEVICE_COMPILE__) // AMD device pass as sm_70: #if __CUDA_ARCH__ >= "
         "530`. An AMD device pass counts as sm_70: half2 arithmetic (sm_53), double "
         "atomicAdd and scoped atomics (sm_60), `__dp4a` (sm_61), `__nanosleep` and the "
         "`_sync` warp functions (sm_70) are in HIP or the polyfill header; what sm_72 and "
         "later add (integer and bf16 tensor cores, `cp.async`, clusters, TMA) is not, so "
         "`__CUDA_ARCH__ >= 800` is false there and the project's path for older GPUs is "
         "built. A bare `#ifdef __CUDA_ARCH__` (device pass or not) is left to the "
         "`__CUDA_ARCH__` rename. See docs/preprocessor.md.",
         category=Category.CODE_RULE, fixable=Fixable.SAFE, announced=True),
    Code("HP318", "cuda-arch-stub-compiled", "An architecture test whose branch for AMD GPUs "
         "is a stub (`#error`, a trap, `assert(false)`): the code behind the threshold needs "
         "what AMD GPUs lack.", Severity.ERROR,
         "After the threshold is answered for AMD GPUs (HP317), the device pass compiles the "
         "branch the project wrote for GPUs without the feature, and that branch only stops "
         "the build or the kernel: `#if __CUDA_ARCH__ >= 800 ... cp.async ... #else "
         "#error needs sm_80 #endif`. Port the guarded code to AMD (rocWMMA for tensor "
         "cores, plain loads to shared memory for `cp.async`) or write the missing path, "
         "then remove the stub.", category=Category.CODE_RULE, work=Work.BREAKS_BUILD),
    _rewrite("HP313", "host-math-classification", "C's floating-point classification "
             "function called unqualified in host code (`isfinite(x)`: HIP declares only its "
             "device overloads in the global namespace, so the host compile fails): written "
             "`std::isfinite(x)`, the same function.", reference=False),
    _rewrite("HP319", "implicit-standard-include", "A .cu file (or a header with kernel "
             "code) uses printf, memcpy, assert or std::thread with no include of its header: "
             "nvcc's implicit cuda_runtime.h gave it, ROCm 7's hip_runtime.h no longer does. "
             "The standard include is added (targets from ROCm 7.0 on).", reference=False),
    Code("HP314", "nvrtc-option", "An NVRTC option string with a hipRTC spelling of the same "
         "meaning (`\"--fmad=false\"` -> `\"-ffp-contract=off\"`): the literal replaced.",
         Severity.INFO,
         "Strings are not rewritten as code is, but an option array passed to "
         "`nvrtcCompileProgram` is read by hipRTC, which hands it to Clang: an NVRTC spelling "
         "Clang does not take fails the compile at run time "
         "(`HIPRTC_ERROR_INVALID_OPTION` or Clang's `unknown argument`). Where the option "
         "has a Clang spelling of the same meaning the literal is replaced (a safe fix): "
         "`--fmad=false` -> `-ffp-contract=off`, `--use_fast_math` -> `-ffast-math`, "
         "`-lineinfo` -> `-gline-tables-only`, `-G` -> `-g`, `--ftz=true` -> "
         "`-fgpu-flush-denormals-to-zero`, `-rdc=true` -> `-fgpu-rdc`, `--include-path=D` -> "
         "`-ID`, `--define-macro=M` -> `-DM`, `--disable-warnings` -> `-w`. The table is "
         "in docs/nvrtc.md.",
         category=Category.CODE_RULE, fixable=Fixable.SAFE, work=Work.NONE),
    Code("HP315", "nvrtc-option-unsupported", "An NVRTC option string hipRTC does not take: "
         "a GPU architecture (`compute_80`, `sm_80`), or an option with no hipRTC meaning "
         "(`-default-device`); the run-time compile fails until it is changed.",
         Severity.WARNING,
         "An NVIDIA architecture is meaningless to hipRTC: `--gpu-architecture=compute_80` "
         "and `-arch=sm_80` fail the compile. Without any architecture option hipRTC compiles "
         "for the GPU of the current device, which is what a `compute_XX` target (PTX, "
         "compiled for the GPU present when loaded) did; removing the option is the closest "
         "port, and `--offload-arch=gfx90a` pins one GPU, like `sm_XX`. The finding's fix "
         "pins the first of `--offload-arch` (default gfx90a) and is unsafe: the code then "
         "runs on that GPU only. Options with no hipRTC meaning (`-default-device`, "
         "`--extra-device-vectorization`, `-dopt=on`, `--ptxas-options=...`, "
         "`-maxrregcount=N`) get no fix: remove them (and count the array again), and for "
         "`-default-device` mark the functions the kernels call `__device__`.",
         category=Category.CODE_RULE, fixable=Fixable.UNSAFE, work=Work.BREAKS_BUILD),
    Code("HP316", "runtime-compiled-source", "Kernel source compiled at run time "
         "(`nvrtcCreateProgram`): a string literal with CUDA names hipRTC does not know, or "
         "a source read at run time that hipport never sees.", Severity.WARNING,
         "hipRTC compiles with its own built-in header, which declares what HIP keeps of "
         "CUDA's device names (`threadIdx`, `__syncthreads`, `atomicAdd`, ...) but not the "
         "names HIP spells otherwise (`__shfl_down_sync`, `cuda_fp16.h`, `cudaStream_t`). "
         "For a source in a string literal the finding names each replacement, and its "
         "unsafe fix renames them inside the literal (unsafe: the string is data, it may also "
         "be printed, hashed or compiled by NVRTC elsewhere). A source read at run time (a "
         "file, an embedded resource) is named by the program's own name argument where it "
         "is a literal: convert that file with hipport as well.",
         category=Category.CODE_RULE, fixable=Fixable.UNSAFE, work=Work.BREAKS_BUILD),
    Code("HP327", "own-hip-branch-kept", "A branch the project wrote for its own HIP build "
         "(`#ifdef __HIP_PLATFORM_AMD__`, `#if defined(USE_HIP)`) is left as written; the "
         "file's other code is converted.", Severity.INFO,
         "Projects that keep a HIP build beside the CUDA one select it with the HIP platform "
         "macro or a switch of their own, and often define CUDA names for it there "
         "(`#define cudaMalloc hipMalloc`). hipport leaves such a branch byte for byte as it "
         "is, and converts the code outside it: the CUDA branch and the code both share. A "
         "project switch (`BUILD_HIP`, `USE_HIP`, `USE_ROCM`) is not defined by the converted "
         "build, which then compiles the converted code, and would compile the project's "
         "branch with the converted shared code where the switch is defined (`-DUSE_HIP=ON`): "
         "both work. The CUDA names the branch defined no longer keep their uses outside it "
         "CUDA's (before, a name the file defines was taken for the project's own, and the "
         "converted build failed with `use of undeclared identifier 'cudaMalloc'`). In the "
         "same `#if ... #endif` chain, the directives and a branch reached only under a CUDA "
         "compiler test (`#elif defined(__CUDACC__)`) stay as written too: hipcc never takes "
         "it, and renaming the test would make hipcc compile a converted copy instead of the "
         "project's HIP branch. See docs/preprocessor.md.\n\n"
         "```cpp\n#if defined(USE_HIP)          // HP327: left as written\n"
         "#include <hip/hip_runtime.h>\n#define cudaMalloc hipMalloc\n#else\n"
         "#include <hip/hip_runtime.h>  // was <cuda_runtime.h>\n#endif\n"
         "hipMalloc(&p, n);              // was cudaMalloc\n```",
         category=Category.CODE_RULE, work=Work.NONE),
    Code("HP320", "rdc-static-device-symbol", "A `static` `__constant__`/`__device__` "
         "variable that the file's host code names (`cudaMemcpyToSymbol(table, ...)`), in a "
         "build with relocatable device code: `static` removed.", Severity.INFO,
         "With `-fgpu-rdc` (CUDA's `CUDA_SEPARABLE_COMPILATION ON`, `-rdc=true`), Clang "
         "registers such a variable for the host under a per-file name while the kernels "
         "refer to the plain one, and the device link fails: `lld: error: undefined symbol: "
         "table` (HIP 5.2 and ROCm 6.4 alike; an anonymous namespace fails the same way). "
         "`__attribute__((used))` links but leaves two variables: the host would write one "
         "and the kernels read the other. Without `static` the variable has one name on "
         "both sides. hipport knows the build compiles relocatable device code from the "
         "tree's build files, read before any file is converted; without it the file is "
         "left alone, as are headers (removing `static` there would define the variable in "
         "every file including the header). Another file defining a variable of the same "
         "name now fails the link (`duplicate symbol`): rename one of them.\n\n"
         "```cpp\nstatic __constant__ unsigned int table[256];   // before\n"
         "__constant__ unsigned int table[256];          // after\n```",
         category=Category.CODE_RULE, fixable=Fixable.SAFE, announced=True),
    Code("HP321", "warp-size-constant-expression", "`warpSize` where C++ needs a constant "
         "expression (an array bound, a template argument, `static_assert`, a `constexpr` "
         "initialiser, a `case` label): ROCm 7's `warpSize` is not one.", Severity.WARNING,
         "ROCm 6 declared `warpSize` as `static constexpr int warpSize = "
         "__AMDGCN_WAVEFRONT_SIZE`, so HIP code could size arrays and instantiate templates "
         "with it. ROCm 7's `warpSize` is a device object whose `operator int()` calls "
         "`__builtin_amdgcn_wavefrontsize()`, and Clang 22 no longer defines "
         "`__AMDGCN_WAVEFRONT_SIZE`: `__shared__ float s[warpSize];` fails with \"array "
         "size is not a constant expression\" (nvcc's `warpSize` is no constant either, so "
         "such code was HIP already). `__builtin_amdgcn_wavefrontsize()` is no constant "
         "expression on ROCm 7 either. Define a constant of your own per target: 64 where "
         "`__GFX9__` is defined (CDNA: MI100, MI200, MI300), 32 on RDNA (gfx10-gfx12), and "
         "use `warpSize` wherever a run-time value will do.\n\n"
         "```cpp\n#if defined(__GFX9__)\nconstexpr int kWave = 64;\n#else\n"
         "constexpr int kWave = 32;  // RDNA, and the host pass\n#endif\n"
         "__shared__ float partial[kWave];\n```",
         category=Category.CODE_RULE, work=Work.BREAKS_BUILD),
    Code("HP322", "warp-width-constant-expression", "Lane or warp arithmetic with a literal "
         "32 (HP401's patterns) where C++ needs a constant expression: the `warpSize` fix is "
         "not offered there, since it would not compile on ROCm 7.", Severity.WARNING,
         "`__shared__ float rows[kLanes / 32][32];` assumes 32-lane warps as HP401 says, but "
         "HP401's fix (`kLanes / warpSize`) would put `warpSize` in an array bound, and ROCm "
         "7's `warpSize` is not a constant expression (HP321). Size it with a compile-time "
         "wavefront width of your own per target (64 where `__GFX9__` is defined: CDNA; 32 "
         "on RDNA), or read `warpSize` (`__builtin_amdgcn_wavefrontsize()`) at run time and "
         "allocate for the widest wavefront (64).",
         category=Category.CODE_RULE, work=Work.REVIEW),
)

_LEDGER = (
    _ledger("HP900", "unmapped-cuda-api", "CUDA-looking name that hipport's catalogue does not "
            "know; left unchanged.", Ledger.UNMAPPED),
    _ledger("HP901", "unsupported-cuda-api", "CUDA API with no HIP equivalent; left unchanged.",
            Ledger.UNSUPPORTED),
    _ledger("HP902", "deprecated-hip-api", "Converted to a HIP API that ROCm marks deprecated.",
            Ledger.DEPRECATED, Fixable.EITHER),
    _ledger("HP903", "removed-cuda-api", "CUDA API removed from CUDA itself; left unchanged.",
            Ledger.REMOVED),
    _ledger("HP904", "unsafe-rename", "Rename needs review (applied only with --unsafe-fixes).",
            Ledger.REVIEW, Fixable.UNSAFE),
    replace(_ledger("HP906", "call-left-for-a-person", "The HIP counterpart needs an argument "
                    "hipport cannot supply at this call, or the compat header cannot rewrite its "
                    "arguments; left unchanged.", Ledger.UNSUPPORTED),
            explanation="The name has a HIP counterpart, but not for this call as written: "
            "`hipsparseSpSM_solve` takes the buffer its analysis step was given, which CUDA 12 "
            "keeps in the descriptor, and no `cusparseSpSM_analysis` call for the same "
            "descriptor comes before it in the file; or the compat strategy, whose header can "
            "only map names and reorder arguments with macros, meets a call whose arguments a "
            "rule rewrites by their values (cuDNN's tensor layouts, that analysis buffer). The "
            "call stays CUDA's and the build stops there: rewrite it by hand, or convert the "
            "file with the rewrite strategy.", work=Work.BREAKS_BUILD),
    _ledger("HP905", "hip-target-too-new", "The HIP counterpart needs a newer ROCm than the "
            "target version; left unchanged.", Ledger.ROCM_TOO_OLD),
)

CORE_CODES = _TOOL + _RENAMES + _CODE_RULES + _LEDGER
