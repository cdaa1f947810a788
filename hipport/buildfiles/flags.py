"""nvcc command-line flags -> hipcc / HIP-Clang flags, over a word sequence.

Shared by the Makefile and CMake front ends: each gives the words of one
flag list (a variable's value, a recipe line, a quoted CMake string, a
generator expression's body) and gets findings with byte-span fixes back.
Flags hipport does not know are left alone; nvcc-only flags it cannot
translate are reported (HP650), never silently dropped."""
from __future__ import annotations

from dataclasses import dataclass, field

from hipport.buildfiles.code_objects import (
    GENCO,
    genco_message,
    has_output,
    is_device_output,
    loop_arch,
    may_hold_flags,
)
from hipport.buildfiles.libraries import (
    DROPPED_LIBRARIES,
    RocmLibrary,
    build_libraries,
    dropped_message,
    looks_like_cuda_library,
)
from hipport.buildfiles.words import Word, removal
from hipport.edits import Edit, Fix
from hipport.findings import Finding

TRANSLATED: dict[str, str] = {
    "-lineinfo": "-gline-tables-only",
    "--generate-line-info": "-gline-tables-only",
    "--use_fast_math": "-ffast-math",
    "-use_fast_math": "-ffast-math",
    "-ftz=true": "-fgpu-flush-denormals-to-zero",
    "--ftz=true": "-fgpu-flush-denormals-to-zero",
    "-fmad=false": "-ffp-contract=off",
    "--fmad=false": "-ffp-contract=off",
    "--default-stream=per-thread": "-fgpu-default-stream=per-thread",
    "--default-stream=legacy": "-fgpu-default-stream=legacy",
    # Each kernel's registers and memory printed: Clang's remarks (HIP 5.2 and 6.4).
    "-res-usage": "-Rpass-analysis=kernel-resource-usage",
    "--resource-usage": "-Rpass-analysis=kernel-resource-usage",
}
# Only where the command is known to be nvcc: elsewhere these mean other things.
NVCC_ONLY_TRANSLATED = {"-dc": "-fgpu-rdc -c", "--device-c": "-fgpu-rdc -c"}
# Device debug information: hipcc 5.2 (Clang 15) ignores -G and fails to link,
# ROCm 6.4's Clang rejects it (`unsupported option '-G'`); HIP-Clang's debug
# information covers host and device, and -O0 is what -G does to device code.
DEVICE_DEBUG = "-ggdb -O0"
DEVICE_DEBUG_OPTIONS = frozenset({"-G", "--device-debug"})  # -G only where nvcc is known

# HIP-Clang already behaves this way, or the setting has no HIP meaning.
DROPPED = frozenset({
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--extended-lambda",
    "-extended-lambda", "--expt-extended-lambda", "-expt-extended-lambda",
    "-Wno-deprecated-gpu-targets", "-ftz=false", "--ftz=false", "-fmad=true", "--fmad=true",
    "-prec-div=true", "--prec-div=true", "-prec-sqrt=true", "--prec-sqrt=true",
    # nvcc's driver passing what it does not know on to GCC: Clang is the host
    # compiler itself (and rejects both: "unknown argument")
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker",
    "-allow-unsupported-compiler", "--allow-unsupported-compiler",
    # PTX and nvcc's optimiser
    "-src-in-ptx", "--source-in-ptx", "-restrict", "--restrict",
    "-extra-device-vectorization", "--extra-device-vectorization",
    # nvcc's front end's own warning numbers
    "--display-error-number", "-err-no", "--no-display-error-number", "-no-err-no",
})
# nvcc's -Werror takes a kind: its own warnings' Clang name, or None where
# the warning is nvcc's alone.  all-warnings is not Clang's -Werror: HIP's
# headers warn where CUDA's do not (hipError_t is [[nodiscard]]: every
# unchecked hipMemcpy stops the build).
WERROR_OPTIONS = frozenset({"-Werror", "--Werror"})
WERROR_KINDS: dict[str, str | None] = {
    "all-warnings": None, "reorder": "-Werror=reorder",
    "deprecated-declarations": "-Werror=deprecated-declarations",
    "cross-execution-space-call": None, "ext-lambda-captures-this": None,
    "default-stream-launch": None, "missing-launch-bounds": None,
}
# Options whose value (``-X=v`` or ``-X v``) is for nvcc's own tools.
DROPPED_WITH_VALUE = frozenset({
    "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options", "-Xfatbin",
    "--fatbin-options", "-Xcudafe", "-ccbin", "--compiler-bindir", "-cudart", "--cudart",
    # nvcc's warning numbers (Clang's warnings have names) and its compile threads
    "--diag-suppress", "-diag-suppress", "--diag_suppress", "--diag-warn", "-diag-warn",
    "--diag-error", "-diag-error", "--diag-default", "-diag-default", "--threads", "-split-compile",
    "--split-compile",
})
HOST_COMPILER_OPTIONS = frozenset({"-Xcompiler", "--compiler-options"})
# Host-compiler flags GCC takes and Clang does not (-Xcompiler unwrapped):
# GCC hands -export-dynamic to the linker, Clang rejects it.
HOST_TRANSLATED = {"-export-dynamic": "-rdynamic"}
ARCH_OPTIONS = frozenset({"-arch", "--gpu-architecture", "-gencode", "--generate-code",
                          "-code", "--gpu-code"})
_ARCH_VALUE_PREFIXES = ("sm_", "compute_", "arch=", "lto_")
_ARCH_VALUES = frozenset({"native", "all", "all-major"})

# nvcc-only flags without a safe translation: reported, left in place.
UNTRANSLATABLE: dict[str, str] = {
    "-maxrregcount": "register limit: use __launch_bounds__ in the source instead",
    "--maxrregcount": "register limit: use __launch_bounds__ in the source instead",
    "-keep": "intermediate files: use -save-temps", "--keep": "intermediate files: use -save-temps",
    "--keep-dir": "intermediate files: use -save-temps=obj",
    "-dlink": "separate device link: with -fgpu-rdc the final hipcc link does it",
    "--device-link": "separate device link: with -fgpu-rdc the final hipcc link does it",
    "-dlto": "device LTO: HIP-Clang has -foffload-lto",
    "--prec-div=false": "approximate division: consider -ffast-math",
    "--prec-sqrt=false": "approximate sqrt: consider -ffast-math",
    "-t": "nvcc parallel compilation", "--optimize": "use -O<n>",
}
_NVCC_ONLY_REPORTED = frozenset({"-keep", "-t", "-dlink"})


@dataclass
class FlagResult:
    findings: list[Finding] = field(default_factory=list)
    claimed: list[tuple[int, int]] = field(default_factory=list)  # spans now owned by a fix
    libraries: set[RocmLibrary] = field(default_factory=set)
    removed: set[int] = field(default_factory=set)  # indices of the words deleted


@dataclass(frozen=True)
class _Action:
    first: int
    last: int
    code: str
    message: str
    text: str | None  # None: remove; "" never used
    report_only: bool = False


def _value(words: list[Word], i: int, names: frozenset[str]) -> tuple[str, str, int] | None:
    """(option, value, index of the last word) when words[i] is one of
    ``names`` with its value attached by ``=`` or in the next word."""
    text = words[i].text
    if text in names and i + 1 < len(words):
        return text, words[i + 1].text, i + 1
    name, eq, value = text.partition("=")
    if eq and name in names:
        return name, value, i
    return None


def rewrite_flags(text: str, words: list[Word], offload: tuple[str, ...], *,
                  nvcc: bool, bare_g: bool = False, arch_loop: str | None = None,
                  output: str | None = None, roc: bool = False) -> FlagResult:
    """Findings for the nvcc flags among ``words`` (all in ``text``).  ``nvcc``:
    the words are nvcc's; ``bare_g``: a bare ``-G`` is nvcc's even so (CMake's
    compile options of a CUDA project: no C/C++ compiler it drives takes one).
    ``arch_loop``: the variable of a loop over the GPU list around the words;
    ``output``: the file a code-object build without ``-o`` writes (Make's ``$@``);
    ``roc``: libraries link as `--roc` converts them (-lrocblas for -lcublas)."""
    actions: list[_Action] = []
    result = FlagResult()
    arch_done = False
    genco: int | None = None  # index in actions of a -fatbin/-cubin/-ptx made --genco
    i = 0
    while i < len(words):
        w = words[i].text
        act: _Action | None = None
        if (v := _value(words, i, ARCH_OPTIONS) or _foreach_arch(w, i)) and _is_arch(v[1]):
            option, value, last = v
            source = _variable_in(value)
            per_gpu = loop_arch(value, arch_loop) if option != "$(foreach)" else None
            note = f"; {source} no longer selects the GPU" if source and not per_gpu else ""
            shown = w if option == "$(foreach)" else f"{option} {value}"
            if arch_done:
                act = _Action(i, last, "HP603", f"{shown} covered by the offload "
                              f"architectures already given{note}", None)
            else:
                flags = per_gpu or " ".join(f"--offload-arch={a}" for a in offload)
                act = _Action(i, last, "HP603", f"{shown} -> {flags}{note}", flags)
                arch_done = True
        elif v := _value(words, i, HOST_COMPILER_OPTIONS):
            option, value, last = v
            if '"' in value or "'" in value:
                act = _Action(i, last, "HP650", f"{option} with a quoted value: pass the host "
                              "flags to hipcc directly", None, report_only=True)
            else:
                flags = " ".join(HOST_TRANSLATED.get(p, p) for p in value.split(",") if p)
                act = _Action(i, last, "HP610", f"{option} {value} -> {flags}", flags or None)
        elif (v := _value(words, i, WERROR_OPTIONS)) and v[1] in WERROR_KINDS and \
                WERROR_KINDS[v[1]] != w:  # (-Werror=reorder is Clang's too)
            option, value, last = v
            new = WERROR_KINDS[value]
            act = _Action(i, last, "HP610" if new else "HP611",
                          f"{option} {value} -> {new}" if new else
                          f"{option} {value} removed: nvcc's warnings as errors (HIP's "
                          "headers warn where CUDA's do not: unchecked hipError_t results)"
                          if value == "all-warnings" else
                          f"{option} {value} removed: an nvcc warning Clang does not have", new)
        elif v := _value(words, i, DROPPED_WITH_VALUE):
            option, value, last = v
            act = _Action(i, last, "HP611", f"{option} {value} removed: no HIP meaning", None)
        elif v := _value(words, i, frozenset({"-rdc", "--relocatable-device-code"})):
            option, value, last = v
            on = value.lower() in ("true", "1", "on")
            act = _Action(i, last, "HP608", f"{option} {value} -> "
                          f"{'-fgpu-rdc' if on else '-fno-gpu-rdc'}",
                          "-fgpu-rdc" if on else "-fno-gpu-rdc")
        elif w in TRANSLATED:
            act = _Action(i, i, "HP610", f"{w} -> {TRANSLATED[w]}", TRANSLATED[w])
        elif w in DEVICE_DEBUG_OPTIONS and (nvcc or w != "-G" or bare_g and not (
                i + 1 < len(words) and words[i + 1].text.isdigit())):  # GCC's `-G 8`
            # -O0 once: `-G -O0` becomes `-ggdb -O0`, not `-ggdb -O0 -O0`.
            flags = "-ggdb" if any(o.text == "-O0" for o in words) else DEVICE_DEBUG
            act = _Action(i, i, "HP610", f"{w} -> {flags} (HIP-Clang has no {w}: its debug "
                          "information covers host and device code)", flags)
        elif nvcc and w in NVCC_ONLY_TRANSLATED:
            act = _Action(i, i, "HP608", f"{w} -> {NVCC_ONLY_TRANSLATED[w]}",
                          NVCC_ONLY_TRANSLATED[w])
        elif nvcc and w == "-x" and i + 1 < len(words) and words[i + 1].text == "cu":
            act = _Action(i, i + 1, "HP610", "-x cu -> -x hip", "-x hip")
        elif v := _value(words, i, frozenset({"--default-stream", "-default-stream"})):
            option, value, last = v
            act = _Action(i, last, "HP610", f"{option} {value} -> "
                          f"-fgpu-default-stream={value}", f"-fgpu-default-stream={value}")
        elif w in DROPPED:
            act = _Action(i, i, "HP611", f"{w} removed: HIP-Clang needs no such flag", None)
        elif is_device_output(w) and (nvcc or w.startswith("--")) and genco is None:
            genco = len(actions)
            act = _Action(i, i, "HP617", genco_message(w), GENCO)
        elif w.startswith("-l") and len(w) > 2:
            act = _library(i, w[2:], result, roc)
        else:
            option = w.partition("=")[0]
            if option in UNTRANSLATABLE and (nvcc or option not in _NVCC_ONLY_REPORTED):
                act = _Action(i, i, "HP650", f"{w}: {UNTRANSLATABLE[option]}; left as it was",
                              None, report_only=True)
        if act is None:
            i += 1
            continue
        actions.append(act)
        i = act.last + 1
    if genco is not None:
        actions[genco] = _code_object(actions[genco], words, offload, arch_done, output)
    removed = {k for a in actions if a.text is None and not a.report_only
               for k in range(a.first, a.last + 1)}
    result.removed = removed
    for a in actions:
        head, tail = words[a.first], words[a.last]
        if a.report_only:
            result.findings.append(Finding(a.code, a.message, head.start, tail.end))
            continue
        edit = (removal(text, words, a.first, a.last, removed) if a.text is None
                else Edit(head.start, tail.end, a.text.encode("latin-1")))
        result.claimed.append((head.start, tail.end))
        result.findings.append(Finding(a.code, a.message, head.start, tail.end,
                                       Fix((edit,), title=a.message)))
    return result


def _code_object(act: _Action, words: list[Word], offload: tuple[str, ...], arch_done: bool,
                 output: str | None) -> _Action:
    """--genco, with the GPUs when no word can give them (nvcc had a default
    architecture; hipcc's is the build machine's GPU) and the output file
    nvcc named when there is no -o."""
    text, message = act.text or GENCO, act.message
    if not arch_done and not any(may_hold_flags(w.text) for w in words):
        flags = " ".join(f"--offload-arch={a}" for a in offload)
        text, message = f"{text} {flags}", f"{message}; {flags} added"
    if output is not None and not has_output([w.text for w in words]):
        text, message = f"{text} -o {output}", f"{message}; -o {output} added (hipcc's own " \
            "name would be <source>-hip-amdgcn-amd-amdhsa.hipfb)"
    return _Action(act.first, act.last, act.code, message, text)


def _library(i: int, name: str, result: FlagResult, roc: bool) -> _Action | None:
    lib = build_libraries(roc).by_link_name.get(name)
    if lib is not None:
        result.libraries.add(lib)
        return _Action(i, i, "HP605", f"-l{name} -> -l{lib.link}", f"-l{lib.link}")
    dropped = DROPPED_LIBRARIES.get(name)
    if dropped is not None:
        return _Action(i, i, dropped.code, dropped_message(f"-l{name}", dropped), None)
    if looks_like_cuda_library(name):
        return _Action(i, i, "HP652", f"-l{name}: no ROCm counterpart known; left as it was",
                       None, report_only=True)
    return None


def _foreach_arch(word: str, i: int) -> tuple[str, str, int] | None:
    """``$(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))``: a Make
    loop generating one nvcc architecture flag per list element."""
    if not (word.startswith(("$(foreach ", "${foreach ")) and word[-1] in ")}"):
        return None
    parts = word[10:-1].split(",", 2)
    if len(parts) < 3 or not any(o in parts[2] for o in ("-gencode", "--generate-code", "-arch",
                                                         "--gpu-arch")):
        return None
    return "$(foreach)", f"arch=over {parts[1]}", i


def _is_arch(value: str) -> bool:
    return value.startswith(_ARCH_VALUE_PREFIXES) or value in _ARCH_VALUES


def _variable_in(value: str) -> str | None:
    for opener, closer in (("$(", ")"), ("${", "}")):
        at = value.find(opener)
        if at >= 0:
            end = value.find(closer, at)
            return value[at:end + 1] if end > 0 else None
    return None
