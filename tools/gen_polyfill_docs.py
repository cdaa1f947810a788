"""Write docs/polyfills.md from mappings/polyfills/*.yaml
(run: python -m tools.gen_polyfill_docs)."""
from __future__ import annotations

import sys
from pathlib import Path

from hipport.polyfills import bundled_polyfills
from hipport.polyfills.docs import page

DOC = Path(__file__).resolve().parent.parent / "docs" / "polyfills.md"


def main(argv: list[str] | None = None) -> int:
    text = page(bundled_polyfills())
    if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
        DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
