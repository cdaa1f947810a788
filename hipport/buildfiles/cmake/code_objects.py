"""Device code objects built by CMake custom commands (docs: HP617).

`add_custom_command(OUTPUT kernel.fatbin COMMAND ${CMAKE_CUDA_COMPILER}
-fatbin ${GENCODE} -o kernel.fatbin kernel.cu)`: CMake's HIP compiler is
Clang, which cannot stand in for nvcc here (Debian's needs the device
library paths hipcc passes), so the command runs hipcc, whose path
`find_package(hip)` gives.  The architecture flags such a build collects
in a loop over the GPU list (`foreach(arch ${CMAKE_CUDA_ARCHITECTURES})`,
`list(APPEND GENCODE -gencode=arch=compute_${arch},code=sm_${arch})`)
become `--offload-arch=${arch}`, one per GPU of the HIP list."""
from __future__ import annotations

from hipport.buildfiles.cmake.flags import flag_arguments
from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Argument, Command
from hipport.buildfiles.code_objects import CMAKE_HIPCC, CMAKE_NVCC
from hipport.buildfiles.flags import ARCH_OPTIONS

ARCHITECTURE_LISTS = frozenset({"CMAKE_CUDA_ARCHITECTURES", "CMAKE_HIP_ARCHITECTURES"})
_CUSTOM_KEYWORDS = frozenset({
    "OUTPUT", "COMMAND", "MAIN_DEPENDENCY", "DEPENDS", "BYPRODUCTS", "IMPLICIT_DEPENDS",
    "WORKING_DIRECTORY", "COMMENT", "DEPFILE", "JOB_POOL", "VERBATIM", "APPEND",
    "USES_TERMINAL", "COMMAND_EXPAND_LISTS", "DEPENDS_EXPLICIT_ONLY", "SOURCES", "ALL",
    "PRE_BUILD", "PRE_LINK", "POST_BUILD", "TARGET", "CODEGEN",
})


def architecture_loops(commands: list[Command]) -> list[tuple[int, int, str]]:
    """(start, end, variable) of each ``foreach(v ${CMAKE_CUDA_ARCHITECTURES})``
    (or ``IN LISTS``) body."""
    loops: list[tuple[int, int, str]] = []
    open_loops: list[tuple[int, str | None]] = []
    for cmd in commands:
        if cmd.lname == "foreach":
            open_loops.append((cmd.end, _loop_variable(cmd.words)))
        elif cmd.lname == "endforeach" and open_loops:
            start, variable = open_loops.pop()
            if variable is not None:
                loops.append((start, cmd.start, variable))
    return loops


def _loop_variable(words: list[Argument]) -> str | None:
    values = [w.value for w in words]
    if len(values) < 2:
        return None
    items = values[1:]
    if items[:2] == ["IN", "LISTS"]:
        lists = items[2:]
        return values[0] if lists and all(v in ARCHITECTURE_LISTS for v in lists) else None
    if items[:2] == ["IN", "ITEMS"]:
        items = items[2:]
    refs = [v[2:-1] for v in items if v.startswith("${") and v.endswith("}")]
    return values[0] if refs and len(refs) == len(items) and all(
        r in ARCHITECTURE_LISTS for r in refs) else None


# CMake's device-code compilations of an object library: the HIP language has none.
DEVICE_OUTPUT_PROPERTIES = frozenset({"CUDA_PTX_COMPILATION", "CUDA_CUBIN_COMPILATION",
                                      "CUDA_FATBIN_COMPILATION", "CUDA_OPTIX_COMPILATION"})


def device_output_property(p: CMakePass, a: Argument) -> None:
    p.report("HP653", f"property {a.value}: CMake's HIP language compiles no code objects; "
             f"build the file the program loads with add_custom_command(OUTPUT <name> COMMAND "
             f"{CMAKE_HIPCC} --genco --offload-arch=<gpu> -o <name> <source>) (HP617)",
             a.start, a.end)


def is_arch_list(values: list[Argument]) -> bool:
    """A list (not a flag variable) holding nvcc architecture options: the
    words are nvcc's whatever the variable is called."""
    return any(w.value.partition("=")[0] in ARCH_OPTIONS - {"-code", "--gpu-code"} and
               ("=" in w.value or w.value in ("-gencode", "--generate-code"))
               for w in values if w.kind is not ArgKind.BRACKET)


def custom_command(p: CMakePass, cmd: Command) -> None:
    """Each COMMAND of add_custom_command/add_custom_target that runs nvcc
    runs hipcc, its flags translated."""
    words = cmd.words
    for k, w in enumerate(words):
        if w.value != "COMMAND" or k + 1 >= len(words):
            continue
        program = words[k + 1]
        if program.value not in CMAKE_NVCC and not program.value.endswith("/nvcc"):
            continue  # (`${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc` is nvcc too)
        p.edit("HP609", f"{program.value} -> {CMAKE_HIPCC} (hipcc, from find_package(hip)): "
               "CMake's HIP compiler is Clang", program.start, program.end, CMAKE_HIPCC)
        p.needs_hip = True
        p.host_uses.append(cmd.start)
        end = next((j for j in range(k + 2, len(words)) if words[j].value in _CUSTOM_KEYWORDS),
                   len(words))
        flag_arguments(p, cmd, list(words[k + 2:end]), nvcc=True)
