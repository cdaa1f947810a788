"""CMake rules: before/after pairs per construct, and look-alikes that stay."""
from __future__ import annotations

import pytest

from hipport.buildfiles import convert_build_file, detect_build_kind
from hipport.settings import Settings

OPTS = Settings(offload_arch=("gfx90a", "gfx942"))
# What marks a list's .cu files as HIP when it may hold other files too (HP606).
FILTER = ('set({v}_HIPPORT_CU ${{{v}}})\nlist(FILTER {v}_HIPPORT_CU INCLUDE REGEX "\\\\.cu$")\n'
          "set_source_files_properties(${{{v}_HIPPORT_CU}}{where} PROPERTIES LANGUAGE HIP)\n")
# What a file that enables HIP and sets no GPU targets gets before it does (HP603).
ARCHS = ('if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n  set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")'
         "\nendif()\n")


def convert(text: str) -> tuple[str, list[str]]:
    result = convert_build_file(text.encode(), "cmake", OPTS)
    return result.output.decode(), [f.code for f in result.findings]


@pytest.mark.parametrize("before, after", [
    pytest.param("project(a LANGUAGES CXX CUDA)\n", ARCHS + "project(a LANGUAGES CXX HIP)\n",
                 id="project-languages"),
    pytest.param("project(a CXX CUDA)\n", ARCHS + "project(a CXX HIP)\n", id="project-positional"),
    pytest.param("enable_language(CUDA)\n", ARCHS + "enable_language(HIP)\n", id="enable-language"),
    pytest.param("cmake_minimum_required(VERSION 3.18)\nproject(a CUDA)\n",
                 "cmake_minimum_required(VERSION 3.21)\n" + ARCHS + "project(a CXX HIP)\n",
                 id="minimum-raised"),
    pytest.param("project(a LANGUAGES CUDA)\n", ARCHS + "project(a LANGUAGES CXX HIP)\n",
                 id="cuda-alone-gains-cxx"),
    pytest.param("project(a VERSION 2.1 LANGUAGES CUDA DESCRIPTION d)\n",
                 ARCHS + "project(a VERSION 2.1 LANGUAGES CXX HIP DESCRIPTION d)\n",
                 id="cuda-alone-among-keywords"),
    pytest.param("cmake_minimum_required(VERSION 3.18...3.27)\nenable_language(CUDA)\n",
                 "cmake_minimum_required(VERSION 3.21...3.27)\n" + ARCHS + "enable_language(HIP)\n",
                 id="minimum-range"),
    pytest.param("set(CMAKE_CUDA_STANDARD 17)\n", "set(CMAKE_HIP_STANDARD 17)\n",
                 id="cmake-cuda-variable"),
    pytest.param('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr -O3")\n',
                 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O3")\n', id="flags-string"),
    pytest.param("set(CMAKE_CUDA_ARCHITECTURES 70 80)\n",
                 'set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")\n', id="architectures"),
    pytest.param('set(CMAKE_CUDA_ARCHITECTURES 80 CACHE STRING "archs")\n',
                 'set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942" CACHE STRING "archs")\n',
                 id="architectures-cache"),
    pytest.param("if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 80)"
                 "\nendif()\n", 'if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n  set(CMAKE_HIP_'
                 'ARCHITECTURES "gfx90a;gfx942")\nendif()\n', id="architectures-if-defined"),
    pytest.param("set_target_properties(t PROPERTIES CUDA_ARCHITECTURES 80)\n",
                 'set_target_properties(t PROPERTIES HIP_ARCHITECTURES "gfx90a;gfx942")\n',
                 id="architectures-property"),
    pytest.param("find_package(CUDAToolkit REQUIRED)\n"
                 "target_link_libraries(t PRIVATE CUDA::cudart CUDA::cublas)\n",
                 "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                 "target_link_libraries(t PRIVATE hip::host roc::hipblas)\n",
                 id="find-package-and-targets"),
    pytest.param("find_package(CUDA 11.0)\n", "find_package(hip)\n", id="findcuda-version"),
    pytest.param("find_package(CUDAToolkit)\ntarget_link_libraries(t cufft -lcurand)\n",
                 "find_package(hip)\nfind_package(hipfft)\nfind_package(hiprand)\n"
                 "target_link_libraries(t hip::hipfft -lhiprand)\n", id="bare-library-names"),
    pytest.param("add_executable(app main.cu util.cpp)\n",
                 "find_package(hip REQUIRED)\nadd_executable(app main.cu util.cpp)\n"
                 "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"
                 "target_link_libraries(app PRIVATE hip::host)\n",
                 id="cu-source-language"),
    pytest.param("function(add_example NAME SOURCES)\n  add_executable(${NAME} ${SOURCES})\n"
                 "endfunction()\nadd_example(amin amin_${KIND}.cu)\n",
                 "function(add_example NAME SOURCES)\n  add_executable(${NAME} ${SOURCES})\n"
                 "endfunction()\nadd_example(amin amin_${KIND}.cu)\n"
                 "set_source_files_properties(amin_${KIND}.cu PROPERTIES LANGUAGE HIP)\n",
                 id="cu-source-through-a-projects-function"),
    pytest.param("function(add_example NAME)\n  add_executable(${NAME} ${NAME}.cu)\n"
                 "  target_link_libraries(${NAME}\n    PUBLIC\n      cublas)\nendfunction()\n",
                 "function(add_example NAME)\n  add_executable(${NAME} ${NAME}.cu)\n"
                 "  set_source_files_properties(${NAME}.cu PROPERTIES LANGUAGE HIP)\n"
                 "  find_package(hipblas REQUIRED)\n  target_link_libraries(${NAME}\n"
                 "    PUBLIC\n      roc::hipblas)\nendfunction()\n",
                 id="find-package-before-the-use-in-a-module"),
    pytest.param("target_link_libraries(t CUDA::cublas)\n",
                 "find_package(hipblas REQUIRED)\ntarget_link_libraries(t roc::hipblas)\n",
                 id="library-without-find-package"),
    pytest.param("project(a LANGUAGES CXX CUDA)\nadd_library(k STATIC k.cu host.cc)\n"
                 "target_link_libraries(k cublas)\n",
                 ARCHS + "project(a LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\n"
                 "find_package(hipblas REQUIRED)\nadd_library(k STATIC k.cu host.cc)\n"
                 "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "target_link_libraries(k hip::host)\n"
                 "target_link_libraries(k roc::hipblas)\n", id="cxx-sources-get-hip-host-plain"),
    pytest.param("project(a LANGUAGES CXX CUDA)\nset(SRC main.cpp)\n"
                 "add_executable(a ${SRC} k.cu)\n",
                 ARCHS + "project(a LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\n"
                 "set(SRC main.cpp)\n"
                 "add_executable(a ${SRC} k.cu)\nset_source_files_properties(k.cu PROPERTIES "
                 "LANGUAGE HIP)\ntarget_link_libraries(a PRIVATE hip::host)\n",
                 id="cxx-sources-in-a-variable"),
    pytest.param("set(SRCS a.cu b.cu)\nadd_library(k STATIC ${SRCS})\n",
                 "set(SRCS a.cu b.cu)\nadd_library(k STATIC ${SRCS})\n"
                 "set_source_files_properties(${SRCS} PROPERTIES LANGUAGE HIP)\n",
                 id="cu-sources-through-variable"),
    pytest.param("find_package(CUDA)\ncuda_add_executable(app k.cu)\n",
                 "find_package(hip)\nadd_executable(app k.cu)\nset_source_files_properties("
                 "k.cu PROPERTIES LANGUAGE HIP)\n", id="legacy-cuda-add-executable"),
    # The toolkit's include folders: HP651 billed a blocker in a project that built
    # (issue 32 §16).
    pytest.param("include_directories(${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})\n",
                 "include_directories(${hip_INCLUDE_DIRS})\n", id="toolkit-include-directories"),
    pytest.param("target_include_directories(t PRIVATE ${CMAKE_CUDA_IMPLICIT_INCLUDE_DIRECTORIES})"
                 "\n", "target_include_directories(t PRIVATE "
                 "${CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES})\n", id="implicit-include-directories"),
    pytest.param("include_directories(${CUDA_INCLUDE_DIRS})\n"
                 "target_link_libraries(t ${CUDA_LIBRARIES})\n",
                 "include_directories(${hip_INCLUDE_DIRS})\nfind_package(hip REQUIRED)\n"
                 "target_link_libraries(t hip::host)\n", id="legacy-variables"),
    pytest.param("project(a C CXX CUDA)\nadd_executable(s s.c)\n"
                 "target_link_libraries(s PUBLIC cudart cusparse)\n",
                 ARCHS + "project(a C CXX HIP)\nfind_package(hip REQUIRED)\n"
                 "find_package(hipsparse "
                 "REQUIRED)\nadd_executable(s s.c)\n"
                 "target_link_libraries(s PUBLIC hip::host roc::hipsparse)\n",
                 id="bare-runtime-name-needs-hip-package"),
    pytest.param("project(p CUDA)\naux_source_directory(src SRC)\nadd_executable(p ${SRC})\n",
                 ARCHS + "project(p CXX HIP)\naux_source_directory(src SRC)\n"
                 'file(GLOB SRC_HIPPORT_CU "src/*.cu")\n'
                 "set_source_files_properties(${SRC_HIPPORT_CU} PROPERTIES LANGUAGE HIP)\n"
                 "list(APPEND SRC ${SRC_HIPPORT_CU})\nadd_executable(p ${SRC})\n",
                 id="aux-source-directory"),
    pytest.param("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)\n",
                 "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-gline-tables-only>)"
                 "\n", id="genex-language-and-flag"),
    pytest.param("target_compile_options(t PRIVATE\n  $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v "
                 "--expt-relaxed-constexpr>)\n", "target_compile_options(t PRIVATE\n)\n",
                 id="genex-split-over-arguments"),
    pytest.param("if(DEBUG)\n  target_compile_options(t PRIVATE "
                 "$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>)\nendif()\n",
                 "if(DEBUG)\n  target_compile_options(t PRIVATE "
                 "$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:-ggdb -O0>)\nendif()\n",
                 id="device-debug-genex"),
    pytest.param('set(CMAKE_CUDA_FLAGS_DEBUG "-G -O0")\n',
                 'set(CMAKE_HIP_FLAGS_DEBUG "-ggdb -O0")\n', id="device-debug-flags"),
    # No C/C++ compiler of a CUDA project takes a bare -G: nvcc's, with no language genex.
    pytest.param("target_compile_options(t PRIVATE $<$<CONFIG:Debug>:-G>)\n",
                 "target_compile_options(t PRIVATE $<$<CONFIG:Debug>:-ggdb -O0>)\n",
                 id="device-debug-config-genex"),
    pytest.param("if(DEBUG)\n  add_compile_options(-G)\nendif()\n",
                 "if(DEBUG)\n  add_compile_options(-ggdb -O0)\nendif()\n",
                 id="device-debug-compile-options"),
    pytest.param("target_compile_options(t PRIVATE -Xcompiler=-Wall,-Wextra --use_fast_math)\n",
                 "target_compile_options(t PRIVATE -Wall -Wextra -ffast-math)\n",
                 id="xcompiler-and-fast-math"),
    pytest.param("set_source_files_properties(k.cpp PROPERTIES LANGUAGE CUDA)\n",
                 "set_source_files_properties(k.cpp PROPERTIES LANGUAGE HIP)\n",
                 id="source-language-property"),
    pytest.param("# CUDA::cublas in a comment\nproject(a CUDA) # CUDA here too\n",
                 "# CUDA::cublas in a comment\n" + ARCHS + "project(a CXX HIP) # CUDA here too\n",
                 id="comments-preserved"),
    # .cu sources named as CMake resolves them, in the target's directory
    pytest.param("set(CUDA_SOURCES Stream.cu)\nlist(TRANSFORM CUDA_SOURCES PREPEND src/cuda/)\n"
                 "add_library(k ${CUDA_SOURCES})\n",
                 "set(CUDA_SOURCES Stream.cu)\nlist(TRANSFORM CUDA_SOURCES PREPEND src/cuda/)\n"
                 "add_library(k ${CUDA_SOURCES})\n"
                 "set_source_files_properties(${CUDA_SOURCES} PROPERTIES LANGUAGE HIP)\n",
                 id="moved-list-named-by-its-variable"),
    pytest.param("set(SRC a.cu a.cuh)\nadd_library(k ${SRC})\n",
                 "set(SRC a.cu a.cuh)\nadd_library(k ${SRC})\n" + FILTER.format(v="SRC", where=""),
                 id="list-with-headers-filtered"),
    pytest.param("find_package(CUDAToolkit)\nadd_subdirectory(backend)\n"
                 "add_executable(app main.cpp ${BACKEND_SOURCES})\n",
                 "find_package(hip)\nadd_subdirectory(backend)\n"
                 "add_executable(app main.cpp ${BACKEND_SOURCES})\n"
                 + FILTER.format(v="BACKEND_SOURCES", where=""), id="list-from-another-listing"),
    pytest.param("target_sources(app PRIVATE Scale.cu)\n",
                 "target_sources(app PRIVATE Scale.cu)\n"
                 "set_source_files_properties(Scale.cu TARGET_DIRECTORY app PROPERTIES LANGUAGE "
                 "HIP)\n", id="target-of-another-directory"),
    pytest.param("set(K ${CMAKE_CURRENT_SOURCE_DIR}/k.cu)\ntarget_sources(app PRIVATE ${K} x.h)\n",
                 "set(K ${CMAKE_CURRENT_SOURCE_DIR}/k.cu)\ntarget_sources(app PRIVATE ${K} x.h)\n"
                 "set_source_files_properties(${K} TARGET_DIRECTORY app PROPERTIES LANGUAGE HIP)\n",
                 id="current-source-dir-to-another-directory"),
    pytest.param("add_library(k STATIC ../shared/k.cu)\n",
                 "add_library(k STATIC ../shared/k.cu)\n"
                 "set_source_files_properties(../shared/k.cu PROPERTIES LANGUAGE HIP)\n",
                 id="parent-folder-source"),
    # a find_package covers the uses after it in its own block and the blocks inside
    pytest.param("if(USE_HIP)\n  find_package(hipblaslt REQUIRED)\n"
                 "  target_link_libraries(app roc::hipblaslt)\nelse()\n"
                 "  find_package(CUDAToolkit REQUIRED)\n  target_link_libraries(app CUDA::cublasLt)"
                 "\nendif()\n",
                 "if(USE_HIP)\n  find_package(hipblaslt REQUIRED)\n"
                 "  target_link_libraries(app roc::hipblaslt)\nelse()\n"
                 "  find_package(hip REQUIRED)\n  find_package(hipblaslt REQUIRED)\n"
                 "  target_link_libraries(app roc::hipblaslt)\nendif()\n",
                 id="package-found-in-another-branch"),
    pytest.param("if(WITH_CUDA)\n  find_package(CUDAToolkit REQUIRED)\nendif()\n"
                 "function(add_fft t)\n  target_link_libraries(${t} CUDA::cufft)\nendfunction()\n",
                 "if(WITH_CUDA)\n  find_package(hip REQUIRED)\nendif()\n"
                 "function(add_fft t)\n  find_package(hipfft REQUIRED)\n"
                 "  target_link_libraries(${t} hip::hipfft)\nendfunction()\n",
                 id="package-used-in-a-function"),
    pytest.param("find_package(CUDAToolkit)\nif(A)\n  target_link_libraries(a CUDA::cublas)\n"
                 "elseif(B)\n  target_link_libraries(b CUDA::cublas)\nendif()\n",
                 "find_package(hip)\nfind_package(hipblas)\nif(A)\n"
                 "  target_link_libraries(a roc::hipblas)\nelseif(B)\n"
                 "  target_link_libraries(b roc::hipblas)\nendif()\n",
                 id="package-found-above-the-branches"),
    # nvcc-only flags, in every place CMake keeps flags
    pytest.param('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -forward-unknown-to-host-compiler '
                 '-O2")\n', 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -O2")\n',
                 id="forward-unknown"),
    pytest.param('string(APPEND CMAKE_CUDA_FLAGS " --allow-unsupported-compiler -Werror '
                 'all-warnings --diag-suppress 177")\n',
                 'string(APPEND CMAKE_HIP_FLAGS " ")\n', id="werror-kind-and-diag"),
    pytest.param('target_compile_options(t PRIVATE "--extended-lambda")\n',
                 "target_compile_options(t PRIVATE)\n", id="emptied-quoted-option-goes"),
    pytest.param('target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>"'
                 " -Wall)\n", "target_compile_options(t PRIVATE -Wall)\n",
                 id="emptied-quoted-genex-goes"),
    pytest.param('target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:'
                 '--expt-relaxed-constexpr;-arch=sm_80>")\n',
                 'target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:'
                 '--offload-arch=gfx90a;--offload-arch=gfx942>")\n', id="quoted-genex-as-list"),
    pytest.param('target_compile_options(t PRIVATE "-arch=sm_80")\n',
                 'target_compile_options(t PRIVATE "--offload-arch=gfx90a;--offload-arch=gfx942")'
                 "\n", id="quoted-option-as-list"),
    pytest.param('target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-arch sm_80>")'
                 "\n", 'target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:SHELL:'
                 '--offload-arch=gfx90a --offload-arch=gfx942>")\n', id="shell-prefix"),
    pytest.param("set(KERNEL_FLAGS -arch=sm_80 --expt-relaxed-constexpr -O3)\n"
                 "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${KERNEL_FLAGS}>)\n",
                 "set(KERNEL_FLAGS --offload-arch=gfx90a --offload-arch=gfx942 -O3)\n"
                 "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:${KERNEL_FLAGS}>)\n",
                 id="project-flag-variable"),
    pytest.param('list(APPEND KERNEL_FLAGS "-x cu" --restrict)\n'
                 'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} ${KERNEL_FLAGS}")\n',
                 'list(APPEND KERNEL_FLAGS "-x hip")\n'
                 'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} ${KERNEL_FLAGS}")\n',
                 id="variable-in-cuda-flags-is-nvcc"),
    # A hand-ported file: its HIP branch marks the source and links the
    # runtime; the converted default (CUDA) branch needs both too.
    pytest.param("project(a LANGUAGES CXX CUDA)\nadd_executable(app main.cpp k.cu)\n"
                 "if(USE_HIP)\n  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "  target_link_libraries(app PRIVATE hip::host)\nendif()\n",
                 ARCHS + "project(a LANGUAGES CXX HIP)\nfind_package(hip REQUIRED)\n"
                 "add_executable(app main.cpp k.cu)\n"
                 "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "target_link_libraries(app PRIVATE hip::host)\n"
                 "if(USE_HIP)\n  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "  target_link_libraries(app PRIVATE hip::host)\nendif()\n",
                 id="marked-in-the-hip-branch-only"),
    pytest.param("project(a LANGUAGES CXX CUDA)\nif(USE_HIP)\n"
                 "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\nelse()\n"
                 "  add_executable(app k.cu)\nendif()\n",
                 ARCHS + "project(a LANGUAGES CXX HIP)\nif(USE_HIP)\n"
                 "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\nelse()\n"
                 "  add_executable(app k.cu)\n"
                 "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\nendif()\n",
                 id="marked-in-the-other-branch"),
])
def test_cmake_fixes(before: str, after: str):
    out, _ = convert(before)
    assert out == after
    again, _ = convert(out)
    assert again == out, "converting twice must change nothing"


@pytest.mark.parametrize("text", [
    pytest.param("set(CUDA_SOMETHING_ELSE ON)\nset(MY_CUDA_FLAGS -O3)\n", id="user-variables"),
    pytest.param('message("CMAKE_CUDA_FLAGS is ${MY_CMAKE_CUDA_FLAGS_X}")\n',
                 id="longer-names"),
    pytest.param("set(X [=[ CMAKE_CUDA_STANDARD CUDA::cublas -arch=sm_80 ]=])\n",
                 id="bracket-argument"),
    pytest.param("#[[ project(a CUDA)\n find_package(CUDAToolkit) ]]\nproject(a CXX)\n",
                 id="bracket-comment"),
    pytest.param('add_executable(app main.cpp)\nmessage(STATUS "uses CUDA")\n',
                 id="no-cuda-sources"),
    pytest.param("target_compile_options(t PRIVATE -arch x86_64 -O2)\n", id="host-arch"),
    pytest.param("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-G 8>)\n",
                 id="host-small-data-option"),
    pytest.param("target_compile_options(t PRIVATE -G 8)\n", id="small-data-option"),
    pytest.param("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:C>:-G>)\n",
                 id="g-for-another-language"),
    pytest.param("add_executable(cuda_tool tool.cpp)\ntarget_link_libraries(cuda_tool m)\n",
                 id="target-named-cuda"),
    pytest.param("project(a LANGUAGES CXX HIP)\n", id="already-hip"),
    pytest.param("project(a LANGUAGES CXX HIP)\nadd_executable(a main.cpp)\n",
                 id="hip-project-cxx-only-target"),
    pytest.param("project(a LANGUAGES CXX CUDA)\nadd_executable(a main.cpp k.cu)\n"
                 "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "target_link_libraries(a PRIVATE hip::host)\n".replace("CUDA)", "HIP)"),
                 id="already-linked-hip-host"),
    # a marking in the target's own block, or one enclosing it, holds there
    pytest.param("project(a LANGUAGES CXX HIP)\nif(USE_HIP)\n  add_executable(a main.cpp k.cu)\n"
                 "  set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "  target_link_libraries(a PRIVATE hip::host)\nendif()\n",
                 id="marked-in-the-targets-branch"),
    pytest.param("project(a LANGUAGES CXX HIP)\n"
                 "set_source_files_properties(k.cu PROPERTIES LANGUAGE HIP)\n"
                 "if(USE_HIP)\n  add_executable(a main.cpp k.cu)\n"
                 "  target_link_libraries(a PRIVATE hip::host)\nendif()\n",
                 id="marked-around-the-targets-branch"),
    pytest.param('install(FILES kernel.cu DESTINATION share/src)\n', id="installed-source"),
    pytest.param('configure_file(kernel.cu.in kernel.cu)\n', id="configured-source"),
    pytest.param('source_group("CUDA" FILES kernel.cu)\n', id="source-group"),
    # nothing CUDA in the file: a list from elsewhere is not guessed at
    pytest.param("add_executable(app main.cpp ${SOURCES})\n", id="unknown-list-no-cuda"),
    pytest.param("project(a CXX)\nset(SRC main.cpp util.h)\nadd_executable(app ${SRC})\n",
                 id="list-without-cu"),
    pytest.param("find_package(CUDAToolkit)\nmy_add_test(t ${SOURCES})\n".replace(
        "CUDAToolkit", "hip"), id="project-function-unknown-list"),
    pytest.param("find_package(hipblaslt REQUIRED)\nif(A)\n"
                 "  target_link_libraries(a roc::hipblaslt)\nendif()\n", id="package-found-above"),
    # a variable no option list uses, and one a C++ option list uses (-G, -x cu
    # are nvcc's only where nvcc is known)
    pytest.param("set(NOT_FLAGS -G --expt-relaxed-constexpr)\n", id="unused-variable"),
    pytest.param('set(HOST_FLAGS "-x cu")\ntarget_compile_options(t PRIVATE ${HOST_FLAGS})\n',
                 id="host-variable-nvcc-only-flag"),
    pytest.param("target_compile_options(t PRIVATE -Werror=format -Werror)\n", id="gcc-werror"),
    pytest.param('set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -restrict-none")\n', id="look-alike"),
    pytest.param("include_directories(${MY_CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})\n"
                 "message(CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES_OLD)\n",
                 id="toolkit-include-look-alikes"),
    pytest.param('set(MSG "--extended-lambda")\nmessage(STATUS "${MSG}")\n', id="not-options"),
    pytest.param("function(_my_CUDAToolkit_helper)\nendfunction()\n_my_CUDAToolkit_helper()\n",
                 id="project-function-with-toolkit-in-its-name"),
])
def test_cmake_noop(text: str):
    out, codes = convert(text)
    assert out == text
    assert not [c for c in codes if c.startswith("HP6") and c < "HP650"]


@pytest.mark.parametrize("text, code", [
    pytest.param("set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n", "HP653",
                 id="cuda-compiler"),
    pytest.param("target_link_libraries(t CUDA::nvfatbin)\n", "HP652", id="unknown-cuda-target"),
    pytest.param("if(DEFINED CUDAToolkit_VERSION)\nendif()\n", "HP651", id="toolkit-version"),
    pytest.param("message(${CUDAToolkit_BIN_DIR})\n", "HP651", id="toolkit-folder"),
    pytest.param("set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)\n", "HP651", id="unknown-cmake-var"),
    pytest.param("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-maxrregcount=32>)\n",
                 "HP650", id="untranslatable-flag"),
    pytest.param("list(APPEND CUDA_NVCC_FLAGS -O3)\n", "HP653", id="cuda-nvcc-flags"),
    pytest.param("cuda_add_executable(a k.cu OPTIONS -G)\n", "HP653", id="legacy-options"),
    pytest.param('option(BUILD_HIP "Build with HIP" OFF)\nif(BUILD_HIP)\n'
                 "  add_definitions(-DBUILD_HIP)\nendif()\n", "HP623", id="project-hip-switch"),
    pytest.param("project(a CUDA\n", "HP655", id="unbalanced-parenthesis"),
    pytest.param('set(A "unterminated)\n', "HP655", id="unterminated-quote"),
])
def test_cmake_reported(text: str, code: str):
    result = convert_build_file(text.encode(), "cmake", OPTS)
    found = [f.finding for f in result.findings if f.code == code]
    assert found, [f.code for f in result.findings]
    for f in found:  # what was reported is left as it was
        assert f.fix is None
        assert text.encode()[f.start:f.end] in result.output


@pytest.mark.parametrize("text", [
    pytest.param('option(WITH_TESTS "tests" OFF)\nif(WITH_TESTS)\nendif()\n', id="not-hip"),
    pytest.param('option(USE_HIP "HIP" OFF)\n', id="never-tested"),
    pytest.param('option(USE_HIPCUB_X "x" OFF)\nif(USE_HIPCUB_X)\nendif()\n', id="longer-word"),
])
def test_option_that_is_no_hip_switch_is_not_reported(text: str):
    assert "HP623" not in convert(text)[1]


@pytest.mark.parametrize("default, said", [
    ("OFF", "OFF by default, so the converted build compiles the converted CUDA branch with HIP "
     "(-DBUILD_HIP=ON builds the project's HIP branch instead)"),
    ("ON", "ON by default, so the converted build takes the project's HIP branch as before"),
])
def test_project_hip_switch_says_what_the_converted_build_does(default: str, said: str):
    result = convert_build_file(f'option(BUILD_HIP "HIP" {default})\nif(BUILD_HIP)\nendif()\n'
                                .encode(), "cmake", OPTS)
    assert said in next(f.finding.message for f in result.findings if f.code == "HP623")


def test_offload_arch_option_is_used():
    result = convert_build_file(b"set(CMAKE_CUDA_ARCHITECTURES 80)\n", "cmake",
                                Settings(offload_arch=("gfx1100",)))
    assert result.output == b'set(CMAKE_HIP_ARCHITECTURES "gfx1100")\n'


def test_non_ascii_and_crlf_round_trip():
    text = "# représentation\r\nproject(a CUDA)\r\nmessage(\"é ${CMAKE_CUDA_FLAGS}\")\r\n"
    out = convert_build_file(text.encode(), "cmake", OPTS).output.decode()
    archs = ARCHS.replace("\n", "\r\n")
    assert out == text.replace("CUDA)", "CXX HIP)").replace("CMAKE_CUDA", "CMAKE_HIP").replace(
        "project", archs + "project")


def test_binary_input_is_skipped():
    result = convert_build_file(b"\x00\x01project(a CUDA)", "cmake", OPTS)
    assert not result.changed and result.findings[0].code == "HP002"


@pytest.mark.parametrize("name, kind", [
    ("CMakeLists.txt", "cmake"), ("cmake/Cuda.cmake", "cmake"), ("Makefile", "make"),
    ("makefile", "make"), ("GNUmakefile", "make"), ("rules.mk", "make"), ("main.cu", None),
    ("CMakeLists.txt.bak", None),
])
def test_detect_build_kind(name: str, kind: str | None):
    assert detect_build_kind(name) == kind


# ---------------------------------------------------------- GPU targets --
def test_gpu_targets_written_before_the_language_is_enabled():
    """CMake reads CMAKE_HIP_ARCHITECTURES when HIP is enabled: without one,
    it built for the configuring machine's GPU or gfx906."""
    result = convert_build_file(b"cmake_minimum_required(VERSION 3.21)\n"
                                b"project(a LANGUAGES CXX CUDA)\nadd_executable(a a.cu)\n",
                                "cmake", Settings(offload_arch=("gfx90a",)))
    out = result.output.decode()
    assert out.startswith("cmake_minimum_required(VERSION 3.21)\n"
                          "if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n"
                          '  set(CMAKE_HIP_ARCHITECTURES "gfx90a")\nendif()\n'
                          "project(a LANGUAGES CXX HIP)\n")
    assert any(f.code == "HP603" and "gfx906" in f.finding.message for f in result.findings)


def test_gpu_targets_indented_with_an_enable_language_in_a_branch():
    out, _ = convert("if(WITH_GPU)\n  enable_language(CUDA)\nendif()\n")
    assert out == ("if(WITH_GPU)\n  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)\n"
                   '    set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")\n  endif()\n'
                   "  enable_language(HIP)\nendif()\n")


@pytest.mark.parametrize("text", [
    pytest.param("project(a CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 80)\n", id="cuda-architectures"),
    pytest.param('set(CMAKE_CUDA_ARCHITECTURES "native")\nproject(a CUDA)\n',
                 id="cuda-architectures-first"),
    pytest.param("project(a CUDA)\nif(NOT CMAKE_HIP_ARCHITECTURES)\n"
                 "  set(CMAKE_HIP_ARCHITECTURES gfx1100)\nendif()\n", id="hip-architectures-own"),
    pytest.param("project(a CXX)\nadd_executable(a a.cpp)\n", id="no-cuda-enabled"),
    pytest.param("check_language(CUDA)\n", id="language-only-checked"),
])
def test_gpu_targets_left_to_the_file(text: str):
    out, _ = convert(text)
    assert "if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)" not in out


# ---------------------------------------------------------- CUDA version --
@pytest.mark.parametrize("before, after", [
    pytest.param("if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER 13)\n"
                 '  message(FATAL_ERROR "CUDA ${CMAKE_CUDA_COMPILER_VERSION} is too new")\n'
                 "endif()\n",
                 'if("11.8" VERSION_GREATER 13)\n  message(FATAL_ERROR "CUDA 11.8 is too new")\n'
                 "endif()\n", id="compiler-version"),
    pytest.param("if(NOT 11.0 VERSION_LESS CUDAToolkit_VERSION)\nelseif(CUDA_VERSION STREQUAL "
                 '"")\nendif()\n', 'if(NOT 11.0 VERSION_LESS "11.8")\nelseif("11.8" STREQUAL '
                 '"")\nendif()\n', id="toolkit-and-findcuda-version"),
    pytest.param("if(${CUDAToolkit_VERSION_MAJOR} GREATER_EQUAL 12 OR CUDA_VERSION_MINOR LESS 2)"
                 "\nendif()\n", 'if(11 GREATER_EQUAL 12 OR "8" LESS 2)\nendif()\n',
                 id="major-and-minor"),
])
def test_cuda_version_resolved_for_the_assumed_release(before: str, after: str):
    result = convert_build_file(before.encode(), "cmake",
                                Settings(assume_cuda_version=(11, 8)))
    assert result.output.decode() == after
    assert {f.code for f in result.findings} == {"HP620"}


@pytest.mark.parametrize("text", [
    pytest.param("if(DEFINED CUDA_VERSION)\nendif()\n", id="defined-test"),
    pytest.param("if(CUDAToolkit_VERSION)\nendif()\n", id="truth-test"),
    pytest.param("if(MY_CUDA_VERSION VERSION_LESS 11)\nendif()\n", id="own-variable"),
    pytest.param('message("CUDA_VERSION is what FindCUDA sets")\n', id="text"),
    pytest.param("set(X [[${CUDAToolkit_VERSION}]])\n", id="bracket"),
])
def test_cuda_version_look_alikes_stay(text: str):
    result = convert_build_file(text.encode(), "cmake", OPTS)
    assert result.output in (None, text.encode()) and not any(
        f.code == "HP620" for f in result.findings)


def test_each_branch_that_links_hip_host_finds_hip_first():
    """The CUDA backend behind an option and the CPU one in the else branch:
    both targets get hip::host, and a find_package(hip) in the if branch does
    not cover the else branch (CMake: target "app" links to hip::host but
    the target was not found)."""
    text = ("cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX)\n"
            "option(USE_CUDA \"CUDA\" OFF)\nif(USE_CUDA)\n  enable_language(CUDA)\n"
            "  add_executable(app main.cpp kernel.cu)\nelse()\n"
            "  add_executable(app main.cpp serial.cpp)\nendif()\n")
    out, _ = convert(text)
    branches = out.split("else()")
    assert len(branches) == 2
    for branch in branches:
        if "hip::host" in branch:
            assert branch.index("find_package(hip") < branch.index("hip::host"), out


# FindCUDAToolkit's private helper, which ROCm's packages do not define: the
# configure stopped with "Unknown CMake command" (issue 32).
HELPER = ("if(NOT TARGET CUDA::cufilt)\n\t_CUDAToolkit_find_and_add_import_lib(cufilt\n"
          "\t\tEXTRA_PATH_SUFFIXES lib64)\nendif()\n")
GUARDED = ("if(NOT TARGET CUDA::cufilt)\n\tif(COMMAND _CUDAToolkit_find_and_add_import_lib)\n"
           "\t_CUDAToolkit_find_and_add_import_lib(cufilt\n\t\tEXTRA_PATH_SUFFIXES lib64)\n"
           "\tendif()\nendif()\n")


def test_findcudatoolkits_private_helper_runs_only_where_it_is_defined():
    out, codes = convert(HELPER)
    assert out == GUARDED
    assert codes.count("HP621") == 1 and "HP653" not in codes


def test_a_guarded_helper_is_not_guarded_again():
    out, codes = convert(GUARDED)
    assert out == GUARDED and "HP621" not in codes


def test_every_private_helper_call_is_guarded_by_its_own_name():
    out, _ = convert("_CUDAToolkit_find_version_file(v)\n")
    assert out == ("if(COMMAND _CUDAToolkit_find_version_file)\n"
                   "_CUDAToolkit_find_version_file(v)\nendif()\n")
