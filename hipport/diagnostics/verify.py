"""Codes of `hipport verify` (and `convert --verify`): converted
translation units that the HIP compiler rejects, and converted projects
that their own build files do not build."""
from __future__ import annotations

from hipport.diagnostics.model import Category, Code, Severity, Work

VERIFY_CODES = (
    Code("HP020", "compile-error", "A converted translation unit does not compile with hipcc; "
         "the finding is the compiler's first error.", Severity.ERROR,
         "`hipport verify` (and `hipport convert --verify`) compiles every converted "
         "translation unit with hipcc for an AMD GPU (`--offload-arch`, default the first "
         "target the build files name, else gfx90a), with the include paths and macros of "
         "`compile_commands.json` or of the converted CMakeLists.txt and Makefiles. The "
         "finding points at the compiler's first error: in the converted file or header "
         "where it is, else (an error inside a system header) at the line of the tree that "
         "included it; `original` gives the same line in the CUDA file when hipport "
         "converted it in this run.\n\n"
         "What to do: read the error. Common causes are a CUDA API hipport left unconverted "
         "(see the HP9xx findings of the same file), a header or library the machine lacks "
         "(`hipport doctor`), an include path the build files compute in a way hipport "
         "cannot read (give it with `--extra-arg -I...` or `-p compile_commands.json`), and "
         "code that nvcc accepts but Clang does not (missing `template` keywords, "
         "host/device mismatches).\n\n"
         "```\n"
         "src/kernel.cu:42:9: HP020 compile-error: use of undeclared identifier "
         "'cudaGraphInstantiateWithParams'\n"
         "```", work=Work.BREAKS_BUILD),
    Code("HP021", "compile-timeout", "hipcc did not finish a converted translation unit, or "
         "a build step did not finish, within the time limit (`--timeout`); it was stopped.",
         Severity.ERROR,
         "A translation unit that takes longer than `--timeout` seconds (default 300) is "
         "stopped and counted as not compiling; with `--build`, a configure or build step of "
         "a project that takes longer than `--timeout` seconds (default 1800) is stopped, with "
         "every process it started, and the project counts as not building (the errors it "
         "printed before are findings too). Heavily templated code (Thrust, CUB, CUTLASS) "
         "can take minutes per GPU target: raise `--timeout`, or use `--units "
         "--syntax-only`, which skips code generation.", work=Work.BREAKS_BUILD),
    Code("HP657", "build-configure-error", "The converted project's build files do not "
         "configure: CMake stopped with an error.", Severity.ERROR,
         "`hipport verify --build` (the default when the tree has a CMakeLists.txt or a "
         "Makefile) configures every project of the converted tree with its own build files, "
         "in a folder outside the tree, with the CMake beside the chosen hipcc (hipport's "
         "ROCm toolchain has its own). The finding is each `CMake Error` CMake printed, at "
         "the line of the tree's build file where it is, or, when it is in a file outside "
         "the tree (a package's config file, a CMake module), at the tree's line that "
         "called it (CMake's call stack).\n\n"
         "What to do: read the message. Common causes are a ROCm package this machine lacks "
         "(`find_package(hipblas REQUIRED)`: `hipport doctor` says which), a language the "
         "project does not enable (`FindThreads only works if either C or CXX language is "
         "enabled` from `hip-config-amd.cmake`: enable CXX with HIP), and a CMake too old "
         "for the HIP language (3.21; 3.27 on a Debian layout).\n\n"
         "```\n"
         "CMakeLists.txt:3: HP657 error: CMake: FindThreads only works if either C or CXX "
         "language is enabled (in /usr/share/cmake-4.3/Modules/FindThreads.cmake:129)\n"
         "```", category=Category.BUILD, work=Work.BREAKS_BUILD),
    Code("HP658", "build-error", "The converted project does not build: a compiler error, "
         "or a build step make could not run.", Severity.ERROR,
         "`hipport verify --build` builds every project of the converted tree with its own "
         "build files and reports each translation unit that fails, at the compiler's first "
         "error (in the converted file or header where it is, else at the tree's line that "
         "included the system header), with the target it was built for and the same line "
         "of the CUDA original when `convert --verify` converted it. A step make could not "
         "run (`No rule to make target`, a command not found) is placed at the Makefile's "
         "rule.\n\n"
         "A C++ source (`.cpp`) that includes `hip/hip_runtime.h` and is compiled by the C++ "
         "compiler without the HIP platform stops at `#error (\"Must define exactly one of "
         "__HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\")`: link its target with "
         "`hip::host` (CMake), or compile it as HIP (`LANGUAGE HIP`, hipcc).\n\n"
         "```\n"
         "src/main.cpp:1: HP658 error: #error (\"Must define exactly one of "
         "__HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\")\n"
         "  in CMake project hip-repo, target app\n"
         "```", category=Category.BUILD, work=Work.BREAKS_BUILD),
    Code("HP659", "link-error", "The converted project does not link: a symbol no library "
         "defines, or a library the linker cannot find.", Severity.ERROR,
         "`hipport verify --build` reports each undefined symbol once per target (lld's "
         "`undefined symbol`, GNU ld's `undefined reference`), at the line of the source "
         "that refers to it (the linker's, with debug information; else the first line "
         "of the source that uses the name), and each library the linker cannot find at the "
         "line of the build file that names it. A target with more than ten undefined "
         "symbols lists ten and counts the rest.\n\n"
         "What to do: a CUDA API left unconverted (see the HP9xx findings of the file), a "
         "ROCm library not linked (`roc::hipblas`, `-lhipblas`), or a library this machine "
         "lacks (`hipport doctor`). hipport's ROCm toolchain links with lld (docs/"
         "toolchains.md): its hipBLAS, hipSPARSE and hipSOLVER have no rocBLAS, rocSPARSE "
         "and rocSOLVER beside them, which GNU ld refuses.\n\n"
         "```\n"
         "src/solver.cpp:42: HP659 error: undefined symbol: cusolverDnCreate\n"
         "  in CMake project hip-repo, target solver\n"
         "```", category=Category.BUILD, work=Work.BREAKS_BUILD),
)
