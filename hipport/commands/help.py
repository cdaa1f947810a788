"""`--help` that reads well: options in titled sections, examples and exit
codes after them (verbatim, not re-wrapped), and a command list whose
summaries are never cut mid-sentence.

Sections are named by parameter, so adding an option to a command is one
decorator as usual; an option no section names is listed under "Other
options"."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import click

OTHER = "Other options"


class SectionedCommand(click.Command):
    def __init__(self, *args: Any, sections: Mapping[str, Sequence[str]] | None = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("context_settings", {}).setdefault("show_default", True)
        super().__init__(*args, **kwargs)
        self.sections = dict(sections or {})

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        section_of = {param: title for title, params in self.sections.items()
                      for param in params}
        rows: dict[str, list[tuple[str, str]]] = {title: [] for title in self.sections}
        rows[OTHER] = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                continue  # named in the usage line
            record = param.get_help_record(ctx)
            if record is not None:
                rows[section_of.get(param.name or "", OTHER)].append(record)
        for title, records in rows.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_verbatim(self.epilog, formatter)


def write_verbatim(text: str | None, formatter: click.HelpFormatter) -> None:
    """Paragraphs headed `Title:` with lines kept as written (examples and
    tables must not be re-flowed)."""
    if not text:
        return
    for block in text.strip("\n").split("\n\n"):
        formatter.write_paragraph()
        for line in block.splitlines():
            if line.startswith(" "):
                formatter.write(f"{'':>{formatter.current_indent}}{line}\n")
            else:
                formatter.write_text(line)


class HelpfulGroup(click.Group):
    """A group whose command list shows each command's own short summary,
    with examples and the like after it, verbatim."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_verbatim(self.epilog, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            # short_help is written for this list; never the docstring cut at 45 columns
            rows.append((name, command.short_help or command.get_short_help_str(200)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
