"""CMake names of the CUDA world and their HIP counterparts (data, no logic)."""
from __future__ import annotations

# CMAKE_CUDA_<suffix> -> CMAKE_HIP_<suffix> (CMake's HIP language has them all).
CMAKE_VARIABLE_SUFFIXES = frozenset({
    "STANDARD", "STANDARD_REQUIRED", "EXTENSIONS", "FLAGS", "FLAGS_INIT", "FLAGS_DEBUG",
    "FLAGS_RELEASE", "FLAGS_RELWITHDEBINFO", "FLAGS_MINSIZEREL", "COMPILER_LAUNCHER",
    "ARCHITECTURES", "COMPILER_ID", "COMPILER_VERSION", "COMPILER_LOADED", "COMPILE_FEATURES",
    "VISIBILITY_PRESET", "STANDARD_LIBRARIES", "OUTPUT_EXTENSION", "COMPILER",
    "CLANG_TIDY", "LINK_FLAGS", "IMPLICIT_INCLUDE_DIRECTORIES", "IMPLICIT_LINK_DIRECTORIES",
    "IMPLICIT_LINK_LIBRARIES",
})

# Target/source property names.
PROPERTY_RENAMES = {"CUDA_STANDARD": "HIP_STANDARD",
                    "CUDA_STANDARD_REQUIRED": "HIP_STANDARD_REQUIRED",
                    "CUDA_EXTENSIONS": "HIP_EXTENSIONS",
                    "CUDA_ARCHITECTURES": "HIP_ARCHITECTURES"}
PROPERTY_COMMANDS = frozenset({"set_target_properties", "set_property", "get_target_property",
                               "get_property", "set_source_files_properties",
                               "get_source_file_property"})

# FindCUDA / FindCUDAToolkit result variables.
VARIABLE_RENAMES = {"CUDA_INCLUDE_DIRS": "hip_INCLUDE_DIRS",
                    "CUDAToolkit_INCLUDE_DIRS": "hip_INCLUDE_DIRS",
                    # The toolkit's headers, as CMake's CUDA language found them.
                    "CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES": "hip_INCLUDE_DIRS",
                    "CUDA_FOUND": "hip_FOUND", "CUDAToolkit_FOUND": "hip_FOUND"}
# ${VAR} -> imported target (link name of the CUDA library in the value).
VARIABLE_TARGETS = {"CUDA_LIBRARIES": "cudart", "CUDA_CUDART_LIBRARY": "cudart",
                    "CUDA_CUBLAS_LIBRARIES": "cublas", "CUDA_cublas_LIBRARY": "cublas",
                    "CUDA_CUFFT_LIBRARIES": "cufft", "CUDA_cufft_LIBRARY": "cufft",
                    "CUDA_curand_LIBRARY": "curand", "CUDA_cusparse_LIBRARY": "cusparse",
                    "CUDA_cusolver_LIBRARY": "cusolver", "CUDA_CUDA_LIBRARY": "cuda"}
VARIABLES_REPORTED = frozenset({
    "CUDA_TOOLKIT_ROOT_DIR", "CUDAToolkit_ROOT", "CUDAToolkit_ROOT_DIR", "CUDAToolkit_BIN_DIR",
    "CUDAToolkit_LIBRARY_DIR", "CUDAToolkit_LIBRARY_ROOT", "CUDAToolkit_TARGET_DIR",
    "CUDAToolkit_VERSION", "CUDAToolkit_VERSION_MAJOR", "CUDAToolkit_VERSION_MINOR",
    "CUDAToolkit_NVCC_EXECUTABLE", "CUDA_VERSION", "CUDA_VERSION_MAJOR", "CUDA_VERSION_MINOR",
    "CUDA_VERSION_STRING", "CUDA_NVCC_EXECUTABLE", "CUDA_HOST_COMPILER",
    "CUDA_PROPAGATE_HOST_FLAGS", "CUDA_ATTACH_VS_BUILD_RULE_TO_CUDA_FILE",
})
FLAG_VARIABLE_PREFIXES = ("CMAKE_CUDA_FLAGS", "CUDA_NVCC_FLAGS")
SEPARABLE = frozenset({"CMAKE_CUDA_SEPARABLE_COMPILATION", "CUDA_SEPARABLE_COMPILATION"})
RESOLVE_DEVICE_SYMBOLS = frozenset({"CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS",
                                    "CUDA_RESOLVE_DEVICE_SYMBOLS"})
# Separable compilation and device linking: one rule handles them (cmake_rdc).
DEVICE_LINK = SEPARABLE | RESOLVE_DEVICE_SYMBOLS
COMPILER_VARIABLES = frozenset({"CMAKE_CUDA_COMPILER", "CMAKE_CUDA_HOST_COMPILER",
                                "CUDA_HOST_COMPILER"})
# CMAKE_CUDA_* handled by dedicated rules (never a plain rename).
CMAKE_SPECIAL = frozenset({"CMAKE_CUDA_HOST_COMPILER"} |
                          {name for name in DEVICE_LINK if name.startswith("CMAKE_")})

FLAG_COMMANDS = frozenset({"target_compile_options", "add_compile_options",
                           "target_link_options", "add_link_options", "target_link_libraries",
                           "link_libraries", "add_definitions"})
LINK_COMMANDS = frozenset({"target_link_libraries", "link_libraries"})
LINK_SCOPES = frozenset({"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE", "LINK_PUBLIC",
                         "LINK_INTERFACE_LIBRARIES"})
LEGACY_RENAMES = {"cuda_add_executable": "add_executable", "cuda_add_library": "add_library",
                  "cuda_include_directories": "include_directories"}
LEGACY_LIBRARY_COMMANDS = {"cuda_add_cublas_to_target": "cublas",
                           "cuda_add_cufft_to_target": "cufft"}
LEGACY_MANUAL = frozenset({"cuda_compile", "cuda_compile_ptx", "cuda_compile_fatbin",
                           "cuda_compile_cubin", "cuda_wrap_srcs",
                           "cuda_link_separable_compilation_objects",
                           "cuda_compute_separable_compilation_object_file_name",
                           "cuda_select_nvcc_arch_flags", "cuda_build_clean_target"})
TARGET_COMMANDS = frozenset({"add_executable", "add_library", "cuda_add_executable",
                             "cuda_add_library", "target_sources"})
EXECUTABLE_COMMANDS = frozenset({"add_executable", "cuda_add_executable"})
LIBRARY_COMMANDS = frozenset({"add_library", "cuda_add_library"})
LIBRARY_TYPES = frozenset({"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE"})
# Targets that are linked themselves: their relocatable device code is linked
# there.  Any other target (a static or object library, or one whose kind this
# file does not show) passes the device link on to its consumers.
SELF_LINKED_KINDS = frozenset({"EXECUTABLE", "SHARED", "MODULE"})
LANGUAGE_GENEXES = ("COMPILE_LANGUAGE:", "LINK_LANGUAGE:", "COMPILE_LANG_AND_ID:",
                    "LINK_LANG_AND_ID:")
TRUE_VALUES = frozenset({"ON", "TRUE", "YES", "Y", "1"})
FALSE_VALUES = frozenset({"OFF", "FALSE", "NO", "N", "0", ""})
HIP_MINIMUM_CMAKE = (3, 21)
# Built-in commands whose file arguments are not sources to compile: a
# literal .cu among the arguments of any other command (add_executable, a
# project's own function adding a target from its arguments) is a source.
NOT_SOURCE_COMMANDS = frozenset({
    "set", "list", "file", "install", "configure_file", "source_group",
    "set_source_files_properties", "set_property", "get_property", "get_source_file_property",
    "get_filename_component", "cmake_path", "message", "string", "if", "elseif", "else",
    "endif", "while", "foreach", "option", "math", "add_custom_command", "add_custom_target",
    "add_test", "set_tests_properties", "include", "add_subdirectory", "find_file", "find_path",
    "return", "target_link_libraries", "target_include_directories", "target_compile_options",
    "target_compile_definitions", "target_link_options", "export", "try_compile", "try_run",
    "execute_process", "separate_arguments", "function", "macro", "endfunction", "endmacro",
    "project", "enable_language", "find_package", "cmake_minimum_required",
    "set_target_properties", "add_dependencies", "include_directories", "add_definitions",
    "add_compile_definitions", "add_compile_options", "link_libraries", "unset", "mark_as_advanced",
    "aux_source_directory",
})
