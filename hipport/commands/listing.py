"""Printing a conversion's findings: which ones, in which format, where
(people's formats to stderr, beside a diff on stdout; programs' formats to
stdout), and the lines that close the list."""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from hipport.codes import CODES
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.output import HUMAN_FORMATS, Options, Reported, render
from hipport.output.model import FixState
from hipport.output.statistics import render_statistics
from hipport.output.style import Palette, color_wanted
from hipport.output.text import repeated_notes
from hipport.pipeline import Plan, Run
from hipport.rewrite import RewriteStrategy
from hipport.score import RunStats
from hipport.words import plural

# Past this many findings a list is more than anyone reads on a terminal:
# the closing lines point to the summaries.
LONG_LISTING = 200


@dataclass(frozen=True)
class Shown:
    """How a command lists what it found (the options of every command that
    lists findings)."""

    quiet: bool = False  # the summary line only
    verbose: bool = False  # converted findings too
    show_fixes: bool = False
    output_format: str = "concise"
    statistics: bool = False  # counts per code instead of a list
    color: str = "auto"


@dataclass(frozen=True)
class Listing:
    # What is listed: unapplied findings, applied ones of announced codes
    # and applied caveats (all with --verbose).
    items: tuple[Reported, ...]
    unsafe: int  # findings of the run that --unsafe-fixes would fix
    options: Options
    output_format: str
    statistics: bool
    quiet: bool

    @classmethod
    def of(cls, run: Run, shown: Shown, planned: Plan) -> Listing:
        items: list[Reported] = []
        unsafe = 0
        for r in run.results:
            if r.outcome is Outcome.SKIPPED and r.error and r.stats.lines == 0 \
                    and not r.findings:
                continue  # a mirrored non-source file
            for f in r.findings:
                item = Reported.of(r.display, f)
                unsafe += item.fix_state is FixState.UNSAFE
                if shown.verbose or not f.applied or CODES[f.code].listed_applied:
                    items.append(item)
        human = shown.output_format in HUMAN_FORMATS
        palette = Palette(human and color_wanted(shown.color, sys.stderr))
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

        options = Options(palette, shown.show_fixes, fixes_written=True, source=source)
        return cls(tuple(items), unsafe, options, shown.output_format, shown.statistics,
                   shown.quiet)

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
        hints.append(f"{p.marker('[*]')} {plural(n, 'more fix')} available with "
                     f"`--unsafe-fixes` (`--show-fixes` shows {'them' if n != 1 else 'it'}; "
                     "review each: they may change what the code does)")
    n = len(listing.items)
    if n > LONG_LISTING:
        files = len({item.path for item in listing.items})
        hints.append(f"{plural(n, 'finding')} in {plural(files, 'file')}: `--statistics` "
                     "counts them per code, `hipport report` ranks what to do first.")
    elided = listing.notes_elided
    if elided:
        code = elided.most_common(1)[0][0]
        hints.append(f"Each explanation is printed once; `hipport explain {code}` says "
                     "more about a code, `--output-format text` repeats them on every line.")
    return hints


def summary_line(stats: RunStats, palette: Palette,
                 settled: str = RewriteStrategy.settled, updated: Sequence[str] = ()) -> str:
    """The run in one line; a run that converted nothing says so plainly
    (a second run over a converted tree is not a failure), and ``settled``
    is what the strategy says of the references found done (those a compat
    header maps count as converted in every run: such a run says they are
    mapped, not that it converted them).  ``updated``: the generated files
    the run wrote (a header a subfolder's new use adds a fallback to)."""
    t = stats.totals
    if stats.files_converted or stats.files_failed:
        return stats.summary()
    files = stats.files_unchanged + stats.files_skipped
    line = f"nothing left to convert in {plural(files, 'file')}"
    if updated:
        line += f" · updated {', '.join(updated)}"
    if t.refs_converted:
        line += f" · {plural(t.refs_converted, 'CUDA reference')} {settled}"
    if t.refs_unconverted:
        n = t.refs_unconverted
        line += f" · {plural(n, 'CUDA reference')} remain{'s' if n == 1 else ''} for a person"
    return palette.good(line) if not t.refs_unconverted else line
