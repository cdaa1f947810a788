"""Printing a conversion's findings: which ones, in which format, where
(people's formats to stderr, beside a diff on stdout; programs' formats to
stdout), and the lines that close the list."""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hipport.codes import CODES
from hipport.output import HUMAN_FORMATS, Options, Reported, render
from hipport.output.model import FixState
from hipport.output.statistics import render_statistics
from hipport.output.style import Palette, color_wanted
from hipport.output.text import repeated_notes
from hipport.pipeline import Plan, Run
from hipport.runner import Mode, Outcome
from hipport.score import RunStats

if TYPE_CHECKING:
    from hipport.commands.convert import ConvertRequest

# Past this many findings a list is more than anyone reads on a terminal:
# the closing lines point to the summaries.
LONG_LISTING = 200


@dataclass(frozen=True)
class Listing:
    # What is listed: unapplied findings and applied caveats (all with --verbose).
    items: tuple[Reported, ...]
    unsafe: int  # findings of the run that --unsafe-fixes would fix
    options: Options
    output_format: str
    statistics: bool
    quiet: bool

    @classmethod
    def of(cls, run: Run, req: ConvertRequest, planned: Plan) -> Listing:
        items: list[Reported] = []
        unsafe = 0
        for r in run.results:
            if r.outcome is Outcome.SKIPPED and r.error and r.stats.lines == 0 \
                    and not r.findings:
                continue  # a mirrored non-source file
            for f in r.findings:
                item = Reported.of(r.display, f)
                unsafe += item.fix_state is FixState.UNSAFE
                if req.verbose or not f.applied or CODES[f.code].caveat:
                    items.append(item)
        human = req.output_format in HUMAN_FORMATS
        palette = Palette(human and color_wanted(req.color, sys.stderr))
        sources = {job.display: job.source for job in planned.jobs}
        readable = planned.request.mode is not Mode.IN_PLACE  # in place: the bytes are gone

        def source(display: str) -> bytes | None:
            path = sources.get(display)
            if path is None or not readable:
                return None
            try:
                return path.read_bytes()
            except OSError:
                return None

        options = Options(palette, req.show_fixes, fixes_written=True, source=source)
        return cls(tuple(items), unsafe, options, req.output_format, req.statistics, req.quiet)

    @property
    def palette(self) -> Palette:
        return self.options.palette

    def print(self) -> None:
        human = self.output_format in HUMAN_FORMATS
        if self.quiet and human:
            return
        out = sys.stderr if human else sys.stdout
        if self.statistics:
            render_statistics(self.items, out, self.options, as_json=not human)
        else:
            render(self.output_format, self.items, out, self.options)
        out.flush()

    @property
    def notes_elided(self) -> Counter[str]:
        """Per code, the notes the concise listing left out (printed once)."""
        if self.output_format != "concise" or self.statistics or self.quiet:
            return Counter()
        return repeated_notes(self.items)


def fix_hints(listing: Listing, unsafe_fixes: bool) -> list[str]:
    """What more hipport could do, after the list (ruff's closing lines)."""
    p = listing.palette
    hints = []
    if listing.unsafe and not unsafe_fixes:
        n = listing.unsafe
        hints.append(f"{p.marker('[*]')} {n} more fix{'es' if n != 1 else ''} available with "
                     f"`--unsafe-fixes` (`--show-fixes` shows {'them' if n != 1 else 'it'}; "
                     "review each: they may change what the code does)")
    n = len(listing.items)
    if n > LONG_LISTING:
        files = len({item.path for item in listing.items})
        hints.append(f"{n} findings in {files} file{'s' if files != 1 else ''}: `--statistics` "
                     "counts them per code, `hipport report` ranks what to do first.")
    elided = listing.notes_elided
    if elided:
        code = elided.most_common(1)[0][0]
        hints.append(f"Each explanation is printed once; `hipport explain {code}` says "
                     "more about a code, `--output-format text` repeats them on every line.")
    return hints


def summary_line(stats: RunStats, palette: Palette) -> str:
    """The run in one line; a run that converted nothing says so plainly
    (a second run over a converted tree is not a failure)."""
    t = stats.totals
    if stats.files_converted or stats.files_failed or t.refs_converted:
        return stats.summary()
    files = stats.files_unchanged + stats.files_skipped
    line = f"nothing left to convert in {files} file{'s' if files != 1 else ''}"
    if t.refs_unconverted:
        n = t.refs_unconverted
        line += (f" · {n} CUDA reference{'s' if n != 1 else ''} "
                 f"remain{'s' if n == 1 else ''} for a person")
    return palette.good(line) if not t.refs_unconverted else line
