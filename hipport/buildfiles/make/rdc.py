"""Links of relocatable device code in Makefiles.

nvcc device-links `-dc` (`-rdc=true`) objects whenever it links, so a CUDA
Makefile often links them with a plain `$(NVCC) a.o b.o -o app`.  hipcc links
device code only when the link has `-fgpu-rdc` too; without it the program
fails to link (undefined `__hip_gpubin_handle_*`, `__hip_fatbin_*`).  When a
Makefile compiles relocatable device code with nvcc, each nvcc link line
without an rdc flag (in its words or in the variables it uses) gets one."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from hipport.buildfiles.words import Word
from hipport.edits import Edit, Fix
from hipport.findings import Finding

RDC_WORDS = frozenset({"-dc", "--device-c", "-rdc=true", "--relocatable-device-code=true",
                       "-fgpu-rdc"})
RDC_OPTIONS = frozenset({"-rdc", "--relocatable-device-code"})  # followed by "true"
# nvcc steps that do not link (a -dlink step is reported as manual work).
NOT_LINKING = frozenset({
    "-c", "--compile", "-dc", "--device-c", "-dw", "--device-w", "-E", "--preprocess",
    "-M", "-MM", "--generate-dependencies", "--generate-nonsystem-dependencies", "-ptx",
    "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin", "-lib", "--lib", "-dlink",
    "--device-link", "-V", "--version", "--help", "-h", "-S",
})
_REFERENCE = re.compile(r"\$[({]([A-Za-z0-9_.-]+)[)}]")
_DEPTH = 8


def _expanded(words: Sequence[str], values: Mapping[str, Sequence[str]],
              depth: int = 0) -> Iterator[str]:
    """The words, and those of the variables they reference (every value a
    variable is given anywhere in the file, recursively)."""
    for word in words:
        yield word
        if depth < _DEPTH:
            for name in _REFERENCE.findall(word):
                for value in values.get(name, ()):
                    yield from _expanded(value.split(), values, depth + 1)


def _has_rdc(words: Sequence[str]) -> bool:
    return any(w in RDC_WORDS or (w in RDC_OPTIONS and nxt.lower() == "true")
               for w, nxt in zip(words, [*words[1:], ""]))


def rdc_links(recipes: Sequence[tuple[Word, Sequence[Word]]],
              values: Mapping[str, Sequence[str]]) -> list[Finding]:
    """`recipes`: (the nvcc word, all words) of each recipe line running nvcc;
    `values`: the values assigned to each variable of the Makefile."""
    lines = [(nvcc, list(_expanded([w.text for w in words], values))) for nvcc, words in recipes]
    if not any(_has_rdc(words) for _, words in lines):
        return []
    findings = []
    for nvcc, words in lines:
        if _has_rdc(words) or NOT_LINKING.intersection(words):
            continue
        message = ("nvcc device-linked the relocatable device code (-dc) it links; hipcc "
                   "does only with -fgpu-rdc (added)")
        fix = Fix((Edit(nvcc.end, nvcc.end, b" -fgpu-rdc"),), title=message)
        findings.append(Finding("HP608", message, nvcc.start, nvcc.end, fix))
    return findings
