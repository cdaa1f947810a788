"""What `--help` says besides the options: sections, examples, exit codes."""
from __future__ import annotations

QUICK_START = """\
Quick start:
  hipport report path/to/cuda-repo                 what the migration will take
  hipport convert path/to/cuda-repo -o hip-repo    convert it (the input stays as it is)

Every command has its own --help, with examples and exit codes.  Shell
completion: eval "$(_HIPPORT_COMPLETE=bash_source hipport)" (zsh_source,
fish_source; see docs/cli.md)."""

SEMANTIC = ("semantic", "compile_commands", "cuda_path", "extra_arg", "cuda_include")

CONVERT_SECTIONS = {
    "Output (default: a dry run that lists findings and writes nothing)": (
        "output", "in_place", "backup", "diff", "force", "prune"),
    "Selection": ("include", "exclude"),
    "Conversion": ("launch_syntax", "unsafe_fixes", "rocm_version", "assume_cuda_version",
                   "polyfills", "roc", "rules", "strict", "fast"),
    "Strategy (docs/single-source.md)": ("strategy", "compat_header", "compat_macro"),
    "Build files": ("no_build_files", "offload_arch"),
    "Verify (build or compile the result)": ("verify", "verify_units", "hipcc", "hipcc_arg",
                                             "no_sandbox", "defines", "make_vars"),
    "Semantic mode": SEMANTIC,
    "Findings": ("output_format", "statistics", "show_fixes", "quiet", "verbose", "color"),
}

CONVERT_EPILOG = """\
Examples:
  hipport convert src -o src-hip             mirror src/ into src-hip/, converted
  hipport convert src --in-place             rewrite changed files (atomic)
  hipport convert kernel.cu --diff           print a unified diff; write nothing
  hipport convert src --statistics           count the findings per code
  hipport convert src --unsafe-fixes --show-fixes -o out
  hipport convert src -o out --force --prune re-run; remove outputs of deleted sources
  hipport convert src -o out --verify        then compile every converted unit with hipcc
  hipport convert src --strategy compat --in-place   keep CUDA; add hip_compat.h for AMD

Findings go to stderr (a diff to stdout); json, sarif and github go to stdout.
[*] marks a finding hipport can fix with --unsafe-fixes.

Exit codes:
  0  done (findings may remain: they are listed)
  1  a file failed and was left unchanged, or --strict and CUDA references remain
     or a change needs confirming (HP411)
     (or, with --verify, a translation unit does not compile)
  2  usage or configuration error, or a folder the run would write to cannot be
     written; nothing was written (or no hipcc for --verify)"""

CHECK_SECTIONS = {
    "What fails": ("policy", "fail_on", "ignore", "report_unused_suppressions",
                   "compat_header"),
    "Which lines count": ("staged", "diff_base"),
    "Baseline (known debt)": ("baseline", "no_baseline", "write_baseline"),
    "Selection": ("include", "exclude", "no_build_files", "config", "rules", "rocm_version",
                  "assume_cuda_version", "polyfills", "roc"),
    "Semantic mode": SEMANTIC,
    "Findings": ("output_format", "statistics", "quiet", "color"),
}

CHECK_EPILOG = """\
Examples:
  hipport check src/                       what fails under the policy (default no-unmapped)
  hipport check --write-baseline src/      record today's violations as known debt
  hipport check --staged                   pre-commit: only lines the commit adds
  hipport check --diff-base origin/main    CI: only lines a branch adds
  hipport check --policy hip-only src/     a tree that must be HIP already
  hipport check src/ --output-format github

Policies: no-unmapped fails on CUDA APIs hipport leaves unconverted (no HIP
equivalent, unknown, removed, too new for --rocm-version) and on error
hazards; hip-only fails on every CUDA reference, converted or not; compat
fails on a CUDA name the compat header (--strategy compat) does not map.
`hipport explain CODE` says which policies fail on a code; docs/check.md has
the table.

Exit codes:
  0  no new violations (or --write-baseline wrote the baseline)
  1  new violations
  2  usage or configuration error"""

REPORT_SECTIONS = {
    "Output": ("fmt", "output", "quiet"),
    "Selection": ("include", "exclude", "no_build_files", "config"),
    "Conversion": ("unsafe_fixes", "rocm_version", "assume_cuda_version", "polyfills", "roc",
                   "rules"),
    "Build": ("verify_build", "timeout", "no_sandbox", "defines", "make_vars"),
    "Semantic mode": SEMANTIC,
}

REPORT_EPILOG = """\
Examples:
  hipport report src/                       the estimate in the terminal
  hipport report src/ -o migration.html     a page with charts (format from the name)
  hipport report src/ -f json -o r.json     the whole report for programs
  hipport report src/ -f csv > ledger.csv   the unmapped-API ledger
  hipport report src/ --verify              bill from a build of the converted tree (hipcc)

Exit codes:
  0  report written
  2  usage or configuration error (with --verify: no HIP compiler)"""

EXPLAIN_EPILOG = """\
Examples:
  hipport explain HP401
  hipport explain warp-size-literal
  hipport explain                            every code, one line each

Exit codes:
  0  explained
  2  no such code (the closest ones are suggested)"""

MAPPINGS_EPILOG = """\
Examples:
  hipport mappings show cudaMemcpyToSymbol
  hipport mappings list --library cublas --status unsupported
  hipport mappings stats

Exit codes:
  0  done
  1  a name is not in the catalogue (show), a file is invalid (validate),
     pages are stale (docs --check)
  2  usage error (an unknown library, say)"""

VERIFY_SECTIONS = {
    "Mode": ("build", "build_dir", "build_system", "no_sandbox"),
    "Configure (as you build it)": ("defines", "make_vars"),
    "Compiler": ("hipcc", "offload_arch", "hipcc_arg", "syntax_only", "timeout", "jobs"),
    "Translation units": ("compile_commands",),
    "Output": ("fmt", "strict", "quiet", "color"),
}

VERIFY_EPILOG = """\
Examples:
  hipport verify hip-repo/                      build it with its CMakeLists.txt or Makefile
  hipport verify hip-repo/ --strict             exit 1 if a project does not build (CI)
  hipport verify hip-repo/ --build-dir /tmp/b   keep the build folders there
  hipport verify hip-repo/ -D USE_HIP=ON        configure it as its GPU build is
  hipport verify hip-repo/ --make-var GPU=1     ... a Makefile (make GPU=1)
  hipport verify hip-repo/ --units              compile every unit alone, as its build would
  hipport verify hip-repo/ --units -p build/    the units and flags of compile_commands.json
  hipport verify hip-repo/ --hipcc /opt/rocm/bin/hipcc --offload-arch gfx942
  hipport verify hip-repo/ -f json > verify.json

--build (the default when every path is a folder with a CMakeLists.txt or a
Makefile): configure and build each project outside the tree, with the
cmake and make beside the chosen hipcc; each failure is a finding at its
source line (HP657 configure, HP658 compile or make, HP659 link, HP021 time
limit), and a build that compiled no HIP source of a project that has some
is not green (HP660: it names the option that selects the GPU code, if()
by if()). --units (the default without a build file): .hip and .cu files, and
C++ sources that reach a HIP header (or the entries of
compile_commands.json), each one finding at the compiler's first error
(HP020, HP021 for a timeout).

Exit codes:
  0  done (what does not build or compile is listed)
  1  --strict and a project does not build or a unit does not compile
  2  usage error, no HIP compiler found (the places tried are named), a build
     tool (cmake, make) or the compiler cannot be run"""

DOCTOR_EPILOG = """\
Examples:
  hipport doctor                  is this machine ready for HIP?
  hipport doctor hip-repo/        ... for this converted tree (libraries, ROCm version)

Exit codes:
  0  ready
  1  something the code needs is missing
  2  usage error"""
