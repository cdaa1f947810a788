"""Codes of the polyfill header (HP7xx): CUDA APIs that ROCm lacks, emulated
by the generated ``hipport_polyfills.h`` (docs/polyfills.md).

HP701-HP704 say that a name is emulated, one code per exactness (the
fallback's data in ``mappings/polyfills/`` states it); HP705 and HP706 say
that a fallback exists but was not applied, and why.  HP707-HP709 are
reserved."""
from __future__ import annotations

from hipport.diagnostics.model import Category, Code, Fixable, Ledger, Severity

_DOCS = "The fallbacks, their exactness and cost are listed in docs/polyfills.md."


def _emulated(code: str, name: str, summary: str, severity: Severity, fixable: Fixable,
              explanation: str) -> Code:
    return Code(code, name, summary, severity, f"{explanation}\n\n{_DOCS}",
                category=Category.POLYFILL, reference=True, fixable=fixable,
                ledger=Ledger.EMULATED)


POLYFILL_CODES = (
    _emulated(
        "HP701", "polyfill-exact", "CUDA API with no HIP equivalent, emulated by the generated "
        "polyfill header with the same results.", Severity.INFO, Fixable.SAFE,
        "ROCm has no counterpart of this CUDA API, so hipport defines it in the generated "
        "header `hipport_polyfills.h`, which the converted sources include. The emulation "
        "gives every result and side effect CUDA's API gives; it may cost more (the finding "
        "and docs/polyfills.md say how much). Where a ROCm release has the real API, the "
        "fallback sits under a `HIP_VERSION` test and steps aside for it."),
    _emulated(
        "HP702", "polyfill-hint-dropped", "CUDA API with no HIP equivalent, emulated by the "
        "generated polyfill header; a performance hint it carries is dropped, the results "
        "are the same.", Severity.INFO, Fixable.SAFE,
        "The CUDA API asks the hardware for a cache policy, an L2 persistence window or a "
        "placement that AMD GPUs do not offer in that form. The emulation does the same work "
        "without the hint (a plain or non-temporal load or store, an accepted but ignored "
        "attribute): results are CUDA's, speed may differ. Measure the hot paths that relied "
        "on the hint."),
    _emulated(
        "HP703", "polyfill-slower", "CUDA API with no HIP equivalent, emulated with the same "
        "results but markedly slower than the CUDA instruction; applied only when asked.",
        Severity.WARNING, Fixable.UNSAFE,
        "The emulation is exact but replaces one CUDA instruction by a loop or a sequence of "
        "many; hipport applies it only when slower fallbacks are allowed. Without it the name "
        "stays in the ledger. Consider restructuring hot code around what AMD GPUs do "
        "natively (the finding names it)."),
    _emulated(
        "HP704", "polyfill-approximate", "CUDA API with no HIP equivalent, emulated with "
        "results that can differ from CUDA's; applied only when asked.", Severity.WARNING,
        Fixable.UNSAFE,
        "The emulation does not give CUDA's results in every case (the finding and "
        "docs/polyfills.md say which); hipport applies it only when approximate fallbacks are "
        "allowed. Check that the program tolerates the difference, or port the code by "
        "hand."),
    Code("HP705", "polyfill-withheld", "A polyfill exists for this CUDA API, but its exactness "
         "is not applied by default; left unchanged.", Severity.WARNING,
         "hipport applies only the fallbacks that give CUDA's results (`exact`, "
         "`hint-dropped`) unless asked for more. This one is `slower` or `approximate`: the "
         "name stays in the ledger as a blocker. Read its entry in docs/polyfills.md; allow "
         "that exactness to have it emulated, or port the code by hand.",
         category=Category.POLYFILL, reference=True, ledger=Ledger.UNSUPPORTED),
    Code("HP706", "polyfill-rocm-too-old", "The polyfill for this CUDA API needs a newer ROCm "
         "than the target version; left unchanged.", Severity.WARNING,
         "The fallback is built on HIP APIs that appeared after the target ROCm release "
         "(`--rocm-version`); for example the bfloat16 conversions need `__hip_bfloat16` "
         "(ROCm 5.7). Raise the target if your machines have that ROCm, or port the code by "
         f"hand.\n\n{_DOCS}",
         category=Category.POLYFILL, reference=True, ledger=Ledger.ROCM_TOO_OLD),
    Code("HP707", "polyfill-header-included", "The polyfill header included where the file "
         "uses an API it emulates.", Severity.INFO,
         "A converted source that uses a CUDA API hipport emulates (HP701-HP704), or the CUDA "
         "13 overloads of a HIP function it adds (`cudaMemPrefetchAsync` with a "
         "`cudaMemLocation`), includes the generated `hipport_polyfills.h` after its HIP "
         "runtime include; the header sits at the top of the folder converted and holds only "
         "the fallbacks the tree uses. A file converted before, which includes the header "
         "already, gets this finding on each `hipMemPrefetchAsync`/`hipMemAdvise` call "
         "beside a `hipMemLocation`: a second run (after an interrupted one, or with the "
         "header deleted) writes the header the first run wrote. With `--strategy compat` "
         "the fallbacks go into `hip_compat.h` instead.\n\n" + _DOCS,
         category=Category.POLYFILL, fixable=Fixable.SAFE),
)
