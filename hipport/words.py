"""Counted nouns in what hipport prints: "1 file", "2 files", "1 entry"."""
from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, made plural unless ``count`` is 1: by ``many``
    when given, else by the English rule for its last word ("fix" -> "fixes",
    "entry" -> "entries", "open finding" -> "open findings")."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {many if many is not None else plural_of(noun)}"


def plural_of(noun: str) -> str:
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"
