"""Build-file conversion (HP6xx): CMake and Makefiles.

HP600-HP649 are conversions hipport made (their findings carry a safe fix);
HP650-HP699 are constructs it left as they were and that need a person."""
from __future__ import annotations

from dataclasses import replace

from hipport.diagnostics.model import Category, Code, Fixable, Severity, Work

_I, _W, _E = Severity.INFO, Severity.WARNING, Severity.ERROR

_CONVERSIONS: tuple[Code, ...] = (
    Code("HP601", "build-language", "CUDA language selection rewritten to HIP.", _I,
         "`project(... LANGUAGES CUDA)`, `enable_language(CUDA)`, `check_language(CUDA)` and "
         "the generator expressions `$<COMPILE_LANGUAGE:CUDA>` / `$<LINK_LANGUAGE:CUDA>` name "
         "the CUDA language; CMake's HIP language (3.21+) is its counterpart.\n\n"
         "```cmake\nproject(app LANGUAGES CXX CUDA)   # before\nproject(app LANGUAGES CXX HIP)    "
         "# after\n```"),
    Code("HP602", "build-variable", "CUDA build variable or property renamed to its HIP "
         "counterpart.", _I,
         "`CMAKE_CUDA_STANDARD`, `CMAKE_CUDA_FLAGS`, the target property `CUDA_STANDARD`, ... "
         "become `CMAKE_HIP_STANDARD`, `CMAKE_HIP_FLAGS`, `HIP_STANDARD`; the toolkit's "
         "`CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES` becomes `hip_INCLUDE_DIRS`. In Makefiles the "
         "conventional compiler variables `NVCC`/`NVCCFLAGS` become `HIPCC`/`HIPCCFLAGS`, "
         "everywhere they are assigned or referenced. Variables of your own (`MY_CUDA_FLAGS`) "
         "are never renamed."),
    Code("HP603", "offload-arch", "CUDA GPU architectures replaced by the AMD offload "
         "architectures.", _I,
         "`-arch=sm_80`, `-gencode arch=compute_80,code=sm_80`, `CMAKE_CUDA_ARCHITECTURES` and "
         "the `CUDA_ARCHITECTURES` property select NVIDIA GPUs. They are replaced by the list "
         "given with `--offload-arch` (default `gfx90a;gfx942`): `--offload-arch=gfx90a "
         "--offload-arch=gfx942` for hipcc, `CMAKE_HIP_ARCHITECTURES` / `HIP_ARCHITECTURES` for "
         "CMake. When the CUDA architecture came from a variable (`-arch=sm_$(SM)`), that "
         "variable no longer affects the build; the message names it. A CMake file that "
         "enables CUDA and sets no architectures gets `if(NOT DEFINED "
         "CMAKE_HIP_ARCHITECTURES)` `set(CMAKE_HIP_ARCHITECTURES ...)` before the "
         "`project()`/`enable_language()` that enables HIP: CMake would otherwise build for "
         "the configuring machine's GPU, or gfx906; `-DCMAKE_HIP_ARCHITECTURES=...` still "
         "chooses."),
    Code("HP604", "find-package", "find_package of the CUDA toolkit replaced by HIP and the "
         "ROCm libraries the file uses.", _I,
         "`find_package(CUDAToolkit)` and the legacy `find_package(CUDA)` become "
         "`find_package(hip)`, followed by one `find_package(<lib>)` for every ROCm library "
         "this build file references (`roc::hipblas` needs `find_package(hipblas)`)."),
    Code("HP605", "build-library", "CUDA library reference replaced by its ROCm library.", _I,
         "Imported targets (`CUDA::cublas` -> `roc::hipblas`, `CUDA::cudart` -> `hip::host`), "
         "link flags (`-lcublas` -> `-lhipblas`, `-lcudart` -> `-lamdhip64`) and bare library "
         "names in `target_link_libraries`."),
    Code("HP606", "source-language", "`.cu` sources marked as HIP for CMake.", _I,
         "CMake picks a source's language from its suffix and knows `.cu` only as CUDA. hipport "
         "keeps the file names and inserts `set_source_files_properties(<the .cu files> "
         "PROPERTIES LANGUAGE HIP)` after the target that lists them. hipcc compiles `.cu` "
         "files as HIP without help."),
    Code("HP607", "legacy-findcuda", "Legacy FindCUDA command or variable replaced.", _I,
         "`cuda_add_executable`/`cuda_add_library` become `add_executable`/`add_library` (their "
         "`.cu` sources marked HIP), `cuda_include_directories` becomes `include_directories`, "
         "`${CUDA_INCLUDE_DIRS}` becomes `${hip_INCLUDE_DIRS}` and `${CUDA_LIBRARIES}` the "
         "`hip::host` target."),
    Code("HP608", "relocatable-device-code", "Separable compilation rewritten as HIP's "
         "`-fgpu-rdc`.", _I,
         "`CUDA_SEPARABLE_COMPILATION ON`, `-rdc=true` and `-dc` become `-fgpu-rdc` (HIP needs "
         "it when compiling *and* linking). The link option goes where CUDA's device link was: "
         "an executable's or shared library's own link, the consumers of a static library "
         "(`PUBLIC`), and in Makefiles every nvcc link of `-dc` objects (nvcc device-linked "
         "them by itself). `CUDA_RESOLVE_DEVICE_SYMBOLS` has no HIP meaning "
         "(the final link resolves device symbols) and is removed; so is `... OFF`."),
    Code("HP609", "build-compiler", "nvcc replaced by hipcc.", _I,
         "The compiler driver named in a Makefile (`nvcc`, `$(CUDA_PATH)/bin/nvcc`) becomes "
         "`hipcc`. hipcc compiles `.cu` files as HIP and links the HIP runtime itself."),
    Code("HP610", "flag-translated", "nvcc flag translated to its HIP-Clang equivalent.", _I,
         "`-Xcompiler -Wall` -> `-Wall`, `--use_fast_math` -> `-ffast-math`, `-lineinfo` -> "
         "`-gline-tables-only`, `-x cu` -> `-x hip`, `--default-stream per-thread` -> "
         "`-fgpu-default-stream=per-thread`, `--fmad=false` -> `-ffp-contract=off`, ..."),
    Code("HP611", "flag-dropped", "nvcc flag with no HIP meaning removed.", _I,
         "Removed because HIP-Clang has no such setting or already behaves that way: "
         "`--expt-relaxed-constexpr` and `--extended-lambda` (allowed by default), "
         "`-Xptxas ...`/`--ptxas-options` (PTX assembler options; the AMD analogue of `-Xptxas "
         "-v` is `-Rpass-analysis=kernel-resource-usage` on recent Clang), `-ccbin` (hipcc uses "
         "its own Clang as host compiler), `-Wno-deprecated-gpu-targets`, `-lcudadevrt`."),
    Code("HP612", "toolkit-path", "CUDA toolkit location replaced by the ROCm location.", _I,
         "`CUDA_PATH`, `CUDA_HOME` and `CUDA_ROOT` become `ROCM_PATH`; `/usr/local/cuda` "
         "becomes `/opt/rocm` and its `lib64` directory `lib`. A Makefile's toolkit root "
         "(`CUDA_PATH ?= /usr/local/cuda`) becomes `ROCM_PATH := $(shell hipconfig --rocmpath "
         "2>/dev/null || echo /opt/rocm)`, so plain `make` works on AMD's `/opt/rocm` and on "
         "distributions that install ROCm under `/usr` (Debian). Do not run `make "
         "ROCM_PATH=/usr`: make exports it to hipcc, whose Clang then looks for the device "
         "libraries in the wrong place."),
    Code("HP613", "cmake-minimum-raised", "cmake_minimum_required raised to 3.21 for the HIP "
         "language.", _I,
         "CMake's first-class HIP language appeared in CMake 3.21; projects that enable it "
         "should require that version. Raising the minimum also moves policy defaults "
         "forward to 3.21."),
    Code("HP614", "single-source-build", "Build file made single-source: the CUDA build as it "
         "was, the HIP build behind a switch.", _I,
         "With `--strategy compat` a CMake file gets `option(<PROJECT>_USE_HIP \"Build for AMD "
         "GPUs with HIP\" OFF)` and a Makefile a `HIP=1` switch; every command or line the "
         "rewrite would change sits in `if(<PROJECT>_USE_HIP) <HIP> else() <as it was> "
         "endif()` (`ifeq ($(HIP),1) ... else ... endif`), so with the switch off the build "
         "is the original one. The HIP side also defines `__HIP_PLATFORM_AMD__=1`, which the "
         "compat header selects its AMD side on (with `--compat-macro NAME`, `NAME=1`; a later "
         "run with another macro re-spells it). See docs/build-files.md, \"Single-source "
         "builds\"."),
    Code("HP615", "hip-platform-for-host-code", "C and C++ sources given the HIP platform: "
         "compiled without hipcc, they include HIP headers.", _I,
         "nvcc compiled a project's `.cpp` files with its host compiler and cudart's headers; "
         "after the conversion they include `hip/hip_runtime.h`, which stops with `#error "
         "(\"Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__\")` "
         "unless the compiler is hipcc or the platform is defined. In CMake a HIP target with "
         "C/C++ sources links `hip::host` (the platform macro and HIP's include path; "
         "`find_package(hip)` is added where needed); in a Makefile, a C/C++ compile line that "
         "gets HIP's include path gets `-D__HIP_PLATFORM_AMD__` beside it.\n\n"
         "```cmake\nadd_executable(app main.cpp scale.cu)\n"
         "set_source_files_properties(scale.cu PROPERTIES LANGUAGE HIP)\n"
         "target_link_libraries(app PRIVATE hip::host)\n```"),
    Code("HP616", "objects-before-sources", "Object files moved before the first `.cu` "
         "input of a hipcc command: hipcc compiles every input after a `.cu` file as HIP "
         "source.", _I,
         "nvcc takes `main.cu util.o` on one command line and links the object. hipcc (HIP "
         "5.2 and ROCm 6.4 alike) puts `-x hip` before the first `.cu` file, which Clang "
         "applies to every input after it: `util.o:1:1: error: expected unqualified-id`. "
         "Objects placed first are linked as objects. In a Makefile rule whose hipcc recipe "
         "takes its inputs from `$^` or `$+`, the rule's object prerequisites are moved "
         "before its first `.cu` prerequisite (not when the recipe also uses `$<`, the first "
         "prerequisite); on a recipe line that names the files, the objects are moved "
         "before the first `.cu` file. Only `.o` files move: the order of archives (`.a`) "
         "decides which symbols they provide.\n\n"
         "```make\nscan: scan_v1.o scan_v2.o scan.cu\n"
         "\t$(HIPCC) $(FLAGS) -o $@ $+\n```"),
    Code("HP617", "device-code-object", "nvcc's device-code output (`-fatbin`, `-cubin`, "
         "`-ptx`) built as a HIP code object with hipcc `--genco`.", _I,
         "A driver-API program loads device code its build made: `nvcc -fatbin -gencode=... "
         "-o kernel.fatbin kernel.cu`, then `cuModuleLoad(&m, \"kernel.fatbin\")`. hipcc's "
         "`--genco` writes an offload bundle with one code object per `--offload-arch` (HIP "
         "5.2 and ROCm 6.4 alike), which `hipModuleLoad` loads whatever the file is called: "
         "the file keeps the name the program loads (hipport leaves strings alone). A loop "
         "over the architectures (`foreach(arch ${CMAKE_CUDA_ARCHITECTURES})` with "
         "`-gencode=arch=compute_${arch},code=sm_${arch}`) gives `--offload-arch=${arch}`; a "
         "CMake custom command running nvcc runs `${hip_BIN_INSTALL_DIR}/hipcc` (the folder "
         "`find_package(hip)`, added where missing, sets on every ROCm: ROCm 7's no longer "
         "sets `hip_HIPCC_EXECUTABLE`). A command with no architecture gets the "
         "offload list; a Makefile recipe without `-o` gets `-o $@` (hipcc's own name is "
         "`<source>-hip-amdgcn-amd-amdhsa.hipfb`).\n\n"
         "```make\nkernel.cubin: kernel.cu\n\t$(HIPCC) --genco --offload-arch=gfx90a "
         "--offload-arch=gfx942 -o $@ $<\n```"),
    Code("HP620", "cmake-cuda-version-resolved", "A CUDA version a CMake file reads "
         "(`CMAKE_CUDA_COMPILER_VERSION`, `CUDAToolkit_VERSION`, FindCUDA's `CUDA_VERSION`) "
         "replaced by the release given with --assume-cuda-version (default 12.0).", _I,
         "After conversion nothing sets these variables, and `CMAKE_CUDA_COMPILER_VERSION` "
         "renamed would be `CMAKE_HIP_COMPILER_VERSION`, Clang's version (21 with ROCm 6.4): "
         "`if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER 13) message(FATAL_ERROR ...)` stopped "
         "the configure, and every \"at least CUDA 11\" test took the old-CUDA branch. As HP309 "
         "does for `CUDART_VERSION` in sources, each `${VAR}` and each bare name compared in "
         "a condition becomes the version the code is assumed to be written for; "
         "`if(DEFINED CUDA_VERSION)` and a bare `if(CUDA_VERSION)` are left to you (HP651).\n\n"
         "```cmake\nif(CUDAToolkit_VERSION VERSION_LESS 11.0)   # before\n"
         "if(\"12.0\" VERSION_LESS 11.0)               # after\n```"),
    Code("HP621", "cmake-toolkit-helper-guarded", "A call of FindCUDAToolkit's private "
         "helpers (`_CUDAToolkit_find_and_add_import_lib`) made to run only where the command "
         "exists.", _W,
         "Some projects import `CUDA::` targets FindCUDAToolkit does not define itself "
         "(`CUDA::cufilt`, `CUDA::nvfatbin`) by calling the module's private function. The "
         "converted project finds ROCm's packages instead of the CUDA toolkit, which define no "
         "such command, and CMake stopped the configure with \"Unknown CMake command\". The "
         "call is wrapped in `if(COMMAND ...)`: the configure goes on, the target is not "
         "defined, and the project's own `if(TARGET CUDA::...)` tests take their fallback, as "
         "on a CUDA release without the library. Where the project links the target "
         "unconditionally, HP652 names it.\n\n"
         "```cmake\nif(COMMAND _CUDAToolkit_find_and_add_import_lib)\n"
         "  _CUDAToolkit_find_and_add_import_lib(cufilt)\nendif()\n```"),
    Code("HP622", "cuda-library-dropped", "A CUDA library ROCm has no counterpart for "
         "removed from a link line; the sources that use it stop at its header.", _W,
         "`-lcusolverMg`, `cusolverMg` or `CUDA::nvml` in `target_link_libraries`, "
         "`-lcupti`, `-lnvidia-ml`, `-lnvjpeg`, the NPP libraries, ...: no ROCm library "
         "stands in for them, so keeping the name only made the link fail, also for the "
         "programs that never call the library (a shared CMake function that links cuSOLVER's "
         "multi-GPU library into every sample). A source that does use the library includes "
         "its header, which has no HIP counterpart: that include is a blocker in the report "
         "and the first error of the build, so nothing that needs the library builds by "
         "accident. The libraries and their headers are listed under `dropped:` in "
         "mappings/rocm-libraries.yaml.\n\n"
         "```cmake\ntarget_link_libraries(app PUBLIC cusolver cusolverMg)   # before\n"
         "target_link_libraries(app PUBLIC roc::hipsolver)         # after\n```",
         work=Work.NONE),
)

_LEFT_AS_THEY_WERE: tuple[Code, ...] = (
    Code("HP650", "unknown-nvcc-flag", "nvcc flag hipport does not translate; left as it "
         "was.", _W,
         "The flag is nvcc-specific and has no safe automatic translation (`-G`, "
         "`-maxrregcount`, `-res-usage`, `--keep`, ...), or hipport does not know it. hipcc "
         "will reject or ignore it: choose an equivalent by hand (see `hipcc --help` and the "
         "HIP-Clang documentation) or remove it."),
    Code("HP651", "unknown-cuda-build-variable", "CUDA build variable or property hipport does "
         "not convert; left as it was.", _W,
         "A `CMAKE_CUDA_*` variable, `CUDAToolkit_*`/`CUDA_*` result variable or `CUDA_*` "
         "property without a known HIP counterpart (`CUDAToolkit_VERSION`, "
         "`CUDA_PTX_COMPILATION`, ...). Decide by hand what the HIP build needs."),
    Code("HP652", "unsupported-cuda-library", "CUDA library without a ROCm counterpart in "
         "hipport's table; left as it was.", _W,
         "For example `CUDA::nvml`, `-lcupti`, `-lnvjpeg`, `-lnppc`. Replace it with a ROCm "
         "library (rocm_smi, rocprofiler, rocJPEG, ...) and port the code that uses it."),
    Code("HP653", "manual-build-work", "Build construct that needs a manual decision; left as "
         "it was.", _W,
         "hipport recognised a CUDA build construct it cannot rewrite mechanically: "
         "`CUDA_NVCC_FLAGS` (a FindCUDA list with no HIP-language counterpart; its flags were "
         "translated in place), `cuda_add_executable(... OPTIONS ...)`, `cuda_compile_ptx`, "
         "`-dlink` steps, `CMAKE_CUDA_COMPILER`/`CMAKE_CUDA_HOST_COMPILER` (CMake's HIP "
         "compiler is Clang, never hipcc), `.cu` sources given through a variable or a glob, "
         "property values taken from variables."),
    Code("HP654", "library-without-find-package", "ROCm library target used but this file has "
         "no find_package of the CUDA toolkit to extend.", _W,
         "The converted file links, for example, `roc::hipblas`, but the matching "
         "`find_package(hipblas)` could not be placed because the toolkit was found in another "
         "file (usually the top-level CMakeLists.txt). Add `find_package(<lib> REQUIRED)` "
         "there."),
    Code("HP656", "not-switchable", "A change the HIP build needs could not be placed behind "
         "the single-source switch; left as it was.", _W,
         "With `--strategy compat` each change is made on the HIP side of an `if`/`ifeq` "
         "block around the command or line it changes. Changes to a block's own structure "
         "(`foreach`, `function`, `endif`, Makefile conditionals), to "
         "`cmake_minimum_required` (raising it would move the CUDA build's policies too) have "
         "no such place: make them by hand, for the HIP side only."),
    Code("HP618", "module-file-built-as-code-object", "A module file the program loads by "
         "name (`cuModuleLoad(&m, \"kernel.ptx\")`) is built by the converted build as a HIP "
         "code object under the same name.", Severity.INFO,
         "`hipModuleLoad` reads a HIP code object or an offload bundle of them, never PTX or "
         "a CUDA cubin/fatbin, whatever the file is called. The tree's build made the file "
         "with `nvcc -ptx`/`-cubin`/`-fatbin`, which the conversion turned into `hipcc "
         "--genco` writing the same name (HP617), so the string stays as it is (hipport never "
         "rewrites strings). Nothing to do if the program loads the file the build writes; a "
         "file of that name made another way (checked in, written by a script) must be "
         "rebuilt with `hipcc --genco --offload-arch=<gpu> -o <name> <source>`.",
         work=Work.NONE),
    Code("HP619", "module-file-not-a-code-object", "A module file the program loads by name "
         "(`cuModuleLoad(&m, \"kernel.cubin\")`) is made by no build file of the tree: on "
         "AMD GPUs it must be a HIP code object.", _W,
         "`hipModuleLoad` reads a HIP code object or an offload bundle of them; a PTX, cubin "
         "or fatbin file fails to load at run time. No build file of the tree makes device "
         "code files (`nvcc -ptx`/`-cubin`/`-fatbin`), so the file comes from elsewhere: "
         "checked in, written by a script, or not converted with the sources. Build it from "
         "its kernel source with `hipcc --genco --offload-arch=<gpu> -o <name> <source>` (one "
         "`--offload-arch` per GPU: the file holds a code object for each), keeping the name "
         "or changing it in the program.", work=Work.REVIEW),
    Code("HP623", "cmake-project-hip-switch", "The project's own switch for its HIP build "
         "(`option(BUILD_HIP ...)`, tested by `if(BUILD_HIP)`) is left as it is: the converted "
         "CUDA branch builds with HIP by default, the project's HIP branch with the switch on.",
         _I,
         "A project that keeps a HIP build beside the CUDA one selects it with an option of "
         "its own, whose branch usually defines the macro its sources test "
         "(`add_definitions(-DBUILD_HIP)`). hipport converts the CUDA branch of the build "
         "file and leaves the option and its branch as they are; in the sources, the code "
         "outside the project's HIP branches is converted and those branches are left as "
         "written (HP327). So the converted project builds with HIP both ways: with the "
         "option's default (the converted CUDA code, when it is OFF) and with it switched "
         "(`-DBUILD_HIP=ON`: the project's own HIP code with the converted shared code). A "
         "source the HIP branch marks `LANGUAGE HIP` is marked again for the targets outside "
         "it (a marking in one branch of an `if()` does not hold in another; before, the "
         "converted default build left such a source out and failed to link). See "
         "docs/build-files.md.", work=Work.NONE),
    Code("HP655", "build-file-syntax", "The build file could not be read; it was left "
         "unchanged.", _E,
         "hipport's CMake lexer found an unbalanced parenthesis, an unterminated quoted or "
         "bracket argument, or text that is not a command; nothing in the file was changed."),
)

BUILD_CODES = tuple(replace(c, category=Category.BUILD, fixable=Fixable.SAFE)
                    for c in _CONVERSIONS) + tuple(replace(c, category=Category.BUILD)
                                                   for c in _LEFT_AS_THEY_WERE)
