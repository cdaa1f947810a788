"""Codes of `hipport verify` (and `convert --verify`): converted
translation units that the HIP compiler rejects."""
from __future__ import annotations

from hipport.diagnostics.model import Code, Severity, Work

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
    Code("HP021", "compile-timeout", "hipcc did not finish a converted translation unit "
         "within the time limit (`--timeout`); it was stopped.", Severity.ERROR,
         "A translation unit that takes longer than `--timeout` seconds (default 300) is "
         "stopped and counted as not compiling. Heavily templated code (Thrust, CUB, CUTLASS) "
         "can take minutes per GPU target: raise `--timeout`, or use `--syntax-only`, "
         "which skips code generation.", work=Work.BREAKS_BUILD),
)
