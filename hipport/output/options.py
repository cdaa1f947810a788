"""How findings are shown: colour, fixes, and what "fixable" means here."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from hipport.output.model import FixState, Reported
from hipport.output.style import Palette


def _no_source(_: str) -> bytes | None:
    return None


@dataclass(frozen=True)
class Options:
    palette: Palette = Palette()
    show_fixes: bool = False
    # convert: an applied fix is in the output already ([fixed]); check:
    # nothing is written, so an applied fix is one `hipport convert` makes.
    fixes_written: bool = True
    # --show-fixes: the original bytes of a file by its shown path (None:
    # not at hand, e.g. replaced in place).
    source: Callable[[str], bytes | None] = field(default=_no_source)
    items_key: str = "findings"  # the JSON document's list

    def fixable(self, item: Reported) -> bool:
        """A fix hipport could make that is not in the file yet ([*])."""
        state = item.fix_state
        if state is FixState.APPLIED:
            return not self.fixes_written
        return state in (FixState.SAFE, FixState.UNSAFE)

    def fixed(self, item: Reported) -> bool:
        return self.fixes_written and item.fix_state is FixState.APPLIED
