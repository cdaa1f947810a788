"""docs/polyfills.md is what tools/gen_polyfill_docs.py writes from the data."""
from __future__ import annotations

from pathlib import Path

from hipport.polyfills import bundled_polyfills
from hipport.polyfills.docs import page

DOC = Path(__file__).resolve().parents[2] / "docs" / "polyfills.md"


def test_the_checked_in_page_is_current():
    assert DOC.read_text(encoding="utf-8") == page(bundled_polyfills()), \
        "docs/polyfills.md is stale: run `python -m tools.gen_polyfill_docs`"


def test_the_page_lists_every_name_with_its_exactness():
    text = page(bundled_polyfills())
    for fallback in bundled_polyfills():
        for name in fallback.cuda_names:
            assert f"`{name}`" in text or f"`<{name}>`" in text
    assert "| `<cooperative_groups/reduce.h>`, `cooperative_groups::reduce`" in text
    assert "`cudaMemPrefetchAsync` (adds CUDA's signature to `hipMemPrefetchAsync`)" in text
    assert ("| 7.2 (only with `!defined(HIP_DISABLE_WARP_SYNC_BUILTINS)`); the fallback stays "
            "beside it |") in text
    assert "cache-hint-access" not in text  # helpers are not APIs
