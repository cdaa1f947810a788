"""Did you mean ...?  The closest names to one a user typed."""
from __future__ import annotations

import difflib
from typing import Iterable


def closest(word: str, candidates: Iterable[str], n: int = 3, cutoff: float = 0.75) -> list[str]:
    """Up to ``n`` candidates close to ``word`` (case ignored), best first."""
    by_folded: dict[str, str] = {}
    for c in candidates:
        by_folded.setdefault(c.casefold(), c)
    found = difflib.get_close_matches(word.casefold(), by_folded, n=n, cutoff=cutoff)
    return [by_folded[f] for f in found]


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> str:
    """"; did you mean X?" (or "X or Y?"), or "" when nothing is close."""
    found = closest(word, candidates, n)
    if not found:
        return ""
    quoted = [f"`{f}`" for f in found]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"; did you mean {listed}?"
