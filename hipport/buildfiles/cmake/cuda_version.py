"""CUDA version tests in CMake (``if(CMAKE_CUDA_COMPILER_VERSION
VERSION_LESS 11.0)``, ``${CUDAToolkit_VERSION}``) answered for the CUDA
release the code is assumed to be written for (``--assume-cuda-version``),
as HP309 answers ``CUDART_VERSION`` in sources.

After conversion nothing sets these variables: CMake's HIP compiler is
Clang, whose version (21 in ROCm 6.4) a CUDA-version test would read as a
CUDA release (``VERSION_GREATER 13``: "CUDA too new", the configure stops),
and the toolkit's variables are empty (every "at least CUDA 11" test fails)."""
from __future__ import annotations

from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Command
from hipport.buildfiles.words import identifiers

# The variable -> which part of the version (X.Y) it holds.
_VERSIONS = {"CMAKE_CUDA_COMPILER_VERSION": "X.Y", "CUDAToolkit_VERSION": "X.Y",
             "CUDAToolkit_VERSION_MAJOR": "X", "CUDAToolkit_VERSION_MINOR": "Y",
             "CUDA_VERSION": "X.Y", "CUDA_VERSION_STRING": "X.Y", "CUDA_VERSION_MAJOR": "X",
             "CUDA_VERSION_MINOR": "Y"}
# if() operators that compare: a bare variable name beside one is read as its value.
_COMPARISONS = frozenset({
    "VERSION_LESS", "VERSION_GREATER", "VERSION_EQUAL", "VERSION_LESS_EQUAL",
    "VERSION_GREATER_EQUAL", "LESS", "GREATER", "EQUAL", "LESS_EQUAL", "GREATER_EQUAL",
    "STRLESS", "STRGREATER", "STREQUAL", "STRLESS_EQUAL", "STRGREATER_EQUAL", "MATCHES"})
_CONDITIONS = frozenset({"if", "elseif", "while"})
CODE = "HP620"
# Every variable above holds this word, so a command without it reads none
# (most commands of a CMake file: the test costs less than its words).
NEEDLE = "CUDA"
if not all(NEEDLE in name for name in _VERSIONS):
    raise RuntimeError(f"a CUDA version variable without {NEEDLE!r}: widen the prefilter")


def cuda_versions(p: CMakePass, cmd: Command) -> None:
    """HP620 for each CUDA version a command reads: ``${VAR}`` anywhere, and
    a bare ``VAR`` compared in a condition, become the assumed version."""
    if p.text.find(NEEDLE, cmd.start, cmd.end) < 0:
        return
    major, minor = p.options.assume_cuda_version
    values = {"X.Y": f"{major}.{minor}", "X": str(major), "Y": str(minor)}
    words = cmd.words
    for k, a in enumerate(words):
        if a.kind is ArgKind.BRACKET:
            continue
        compared = cmd.lname in _CONDITIONS and a.kind is ArgKind.UNQUOTED and any(
            w.value in _COMPARISONS for w in words[max(0, k - 1):k + 2])
        if compared and a.text in _VERSIONS:
            value = values[_VERSIONS[a.text]]
            _resolve(p, a.text, a.start, a.end, f'"{value}"', value)
            continue
        for ident in identifiers(p.text, a.value_start, a.value_end):
            name = ident.text
            referenced = p.text[ident.start - 2:ident.start] == "${" and \
                p.text[ident.end:ident.end + 1] == "}"
            if name in _VERSIONS and referenced:
                value = values[_VERSIONS[name]]
                _resolve(p, name, ident.start - 2, ident.end + 1, value, value)


def _resolve(p: CMakePass, name: str, start: int, end: int, text: str, value: str) -> None:
    p.edit(CODE, f"{name}: the CUDA version this code is assumed to be written for "
           f"(--assume-cuda-version, {value}); after conversion nothing sets it, and CMake's "
           "HIP compiler version is Clang's", start, end, text)
