"""HTML: one self-contained page (inline CSS, SVG charts and a few lines of
script for sorting tables); a Content-Security-Policy forbids any network
request, so the page renders the same offline."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from hipport.report import view
from hipport.report.model import Report
from hipport.words import plural

CHART_WIDTH = 640  # px of the bar area; labels get their own column
LABEL_WIDTH = 240
LABEL_CHARACTERS = 32  # what fits in LABEL_WIDTH at the page's font size
BAR_HEIGHT = 18
TOP_BARS = 12
COLORS = {"converted": "#2e7d32", "unconverted": "#c62828", "findings": "#ef6c00",
          "high": "#c62828", "medium": "#ef6c00", "low": "#9e9d24"}


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    color: str
    title: str


def fit(label: str, characters: int = LABEL_CHARACTERS) -> str:
    """A chart label that fits its column: long ones lose their start (the
    end of a path says most), marked with an ellipsis."""
    return label if len(label) <= characters else "…" + label[-(characters - 1):]


@dataclass(frozen=True)
class Bar:
    label: str
    y: int
    segments: tuple[Segment, ...]
    value: str  # printed after the bar, at value_x
    value_x: float


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    bars: tuple[Bar, ...]
    legend: tuple[tuple[str, str], ...]  # (label, color)

    @property
    def height(self) -> int:
        return len(self.bars) * (BAR_HEIGHT + 6) + 6


def _stacked(rows: list[tuple[str, list[tuple[float, str, str]], str]], chart_id: str,
             title: str, legend: tuple[tuple[str, str], ...]) -> Chart:
    """rows: (label, [(amount, color, tooltip)], value text); scaled to the largest."""
    largest = max((sum(a for a, _, _ in parts) for _, parts, _ in rows), default=0) or 1
    bars = []
    for i, (label, parts, value) in enumerate(rows[:TOP_BARS]):
        x = float(LABEL_WIDTH)
        segments = []
        for amount, color, tip in parts:
            width = CHART_WIDTH * amount / largest
            if amount:
                segments.append(Segment(round(x, 2), round(max(width, 1.0), 2), color, tip))
            x += width
        end = segments[-1].x + segments[-1].width if segments else float(LABEL_WIDTH)
        bars.append(Bar(label, 6 + i * (BAR_HEIGHT + 6), tuple(segments), value,
                        round(end + 6, 2)))
    return Chart(chart_id, title, tuple(bars), legend)


def charts(report: Report) -> list[Chart]:
    libraries = _stacked(
        [(lib.library, [(lib.refs_converted, COLORS["converted"],
                         f"{lib.refs_converted} converted"),
                        (lib.refs_unconverted, COLORS["unconverted"],
                         f"{lib.refs_unconverted} unconverted")],
          view.percent(lib.conversion_rate)) for lib in report.libraries],
        "chart-libraries", "Conversion by library (references)",
        (("converted", COLORS["converted"]), ("unconverted", COLORS["unconverted"])))
    ledger = _stacked(
        [(row.cuda_name, [(row.days, COLORS[row.priority],
                           f"{row.status}, {plural(row.occurrences, 'use')}, "
                           f"{view.days(row.days)} days")],
          f"{view.days(row.days)} d") for row in report.ledger],
        "chart-ledger", "Top ledger entries (estimated person-days)",
        (("high", COLORS["high"]), ("medium", COLORS["medium"]), ("low", COLORS["low"])))
    busiest = sorted(report.directories, key=lambda d: (
        -(d.tally.refs_unconverted + d.tally.open_findings), d.name))
    directories = _stacked(
        [(d.name, [(d.tally.refs_unconverted, COLORS["unconverted"],
                    plural(d.tally.refs_unconverted, "unconverted reference")),
                   (d.tally.open_findings, COLORS["findings"],
                    plural(d.tally.open_findings, "open finding"))],
          str(d.tally.refs_unconverted + d.tally.open_findings))
         for d in busiest if d.tally.refs_unconverted + d.tally.open_findings],
        "chart-directories", "Work left by directory (unconverted references and findings)",
        (("unconverted references", COLORS["unconverted"]),
         ("open findings", COLORS["findings"])))
    return [libraries, ledger, directories]


def render(report: Report, out: TextIO) -> None:
    from hipport.report.templating import environment

    env = environment(autoescape=True)
    env.filters["fit"] = fit
    template = env.get_template("report.html.j2")
    out.write(template.render(
        r=report, headline=view.headline(report), charts=charts(report),
        files=list(report.files) if len(report.files) <= view.TOP_LEDGER
        else view.files_needing_work(report, view.TOP_LEDGER),
        ledger=report.ledger[:view.TOP_LEDGER],
        label_width=LABEL_WIDTH, chart_width=CHART_WIDTH + LABEL_WIDTH + 90,
        bar_height=BAR_HEIGHT, coverage=view.coverage_note(report),
        steps=view.next_steps(report), kinds=view.KINDS))
