"""`hipport explain`: one code's documentation, or the list of all codes."""
from __future__ import annotations

import sys

import click

from hipport.check.policy import Policy, default_selects
from hipport.codes import BY_NAME, CODES, Code, lookup
from hipport.diagnostics.model import Category, Fixable
from hipport.errors import UsageError
from hipport.output.style import Palette, color_wanted
from hipport.suggest import did_you_mean

_FIXABLE = {Fixable.NEVER: "none, a person decides",
            Fixable.SAFE: "`hipport convert` applies it",
            Fixable.UNSAFE: "`hipport convert --unsafe-fixes` applies it (review each)",
            Fixable.EITHER: "`hipport convert` applies it (some only with --unsafe-fixes)"}


def run_explain(code: str | None, show_all: bool, color: str) -> int:
    palette = Palette(color_wanted(color, sys.stdout))
    if code is None or show_all:
        list_codes(palette)
        return 0
    found = lookup(code)
    if found is None:
        close = did_you_mean(code, CODES, 1) or did_you_mean(code, BY_NAME, 3)
        raise UsageError(f"unknown code {code!r}{close or '; codes look like HP101'} "
                         "(`hipport explain` lists them all)")
    explain_code(found, palette)
    return 0


def failing_policies(code: str) -> list[str]:
    return [p.value for p in Policy if default_selects(p, code)]


def explain_code(code: Code, palette: Palette) -> None:
    policies = failing_policies(code.code)
    fails = "fails only when named in --fail-on"
    if policies:
        fails = (f"fails under the {' and '.join(policies)} "
                 f"polic{'ies' if len(policies) > 1 else 'y'}")
    click.echo(f"{palette.code(code.code, code.severity.value)} {palette.strong(code.name)} "
               f"({code.severity.value})\n{code.summary}\n\n"
               f"hipport check: {fails}.\nFix: {_FIXABLE[code.fixable]}.")
    if not code.explanation:
        return
    if palette.enabled:  # a terminal: headings, code blocks, emphasis rendered
        from rich.markdown import Markdown

        from hipport.output.console import PipeConsole

        click.echo()
        PipeConsole().print(Markdown(code.explanation))
    else:
        click.echo(f"\n{code.explanation.rstrip()}")


def list_codes(palette: Palette) -> None:
    width = max(len(c.name) for c in CODES.values())
    for category in Category:
        codes = sorted((c for c in CODES.values() if c.category is category),
                       key=lambda c: c.code)
        if not codes:
            continue
        click.echo(palette.strong(f"{category.value}:"))
        for c in codes:
            click.echo(f"  {palette.code(c.code, c.severity.value)}  {c.name:<{width}}  "
                       f"{c.severity.value:<7}  {c.summary}")
    click.echo(f"\n{len(CODES)} codes; `hipport explain CODE` for one in full.")
