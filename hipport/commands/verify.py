"""`hipport verify` and `convert --verify`: build the converted tree with
its own build files, or compile its translation units; print each failure
at its source line and the summary."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from hipport.filenames import display_path, shown_path
from hipport.output.progress import progress_bar
from hipport.output.style import color_wanted, interactive
from hipport.verify import BuildVerification, Request, Verification, run
from hipport.verify.render import (
    build_text_lines,
    build_tool_lines,
    render_build_json,
    render_json,
    text_lines,
)

FORMATS = ("text", "json")
Result = Verification | BuildVerification


def verify_exit_code(verification: Result, strict: bool) -> int:
    return 1 if strict and verification.failed else 0


def run_verify(request: Request, fmt: str = "text", strict: bool = False, quiet: bool = False,
               color: str = "auto") -> int:
    """Build or compile, print, and return the exit code (1: --strict and
    something failed)."""
    verification = compile_tree(request, quiet, color)
    code = verify_exit_code(verification, strict)
    if fmt != "json":
        print_text(verification, quiet)
    elif isinstance(verification, BuildVerification):
        render_build_json(verification, sys.stdout, display_path, code)
    else:
        render_json(verification, sys.stdout, display_path, code)
    return code


def compile_tree(request: Request, quiet: bool, color: str,
                 command: str = "hipport verify") -> Result:
    show = not quiet and interactive(sys.stderr)
    with progress_bar("verifying", None, enabled=show, color=color_wanted(color, sys.stderr),
                      first="finding what to build") as bar:
        return run(request, observe=bar, found=bar.expect, say=say, command=command)


def say(text: str) -> None:
    """What the user must know before a build starts (said even with -q)."""
    click.echo(f"hipport: {text}", err=True)


def print_text(verification: Result, quiet: bool) -> None:
    compiler = verification.compiler
    if isinstance(verification, BuildVerification):
        if not quiet:
            for line in [*build_text_lines(verification, display_path),
                         *build_tool_lines(verification)]:
                click.echo(line, err=True)
    else:
        if not quiet:
            for line in text_lines(verification, display_path):
                click.echo(line, err=True)
        if not verification.results:
            click.echo("hipport: no translation units to compile (.hip, .cu, or C++ sources "
                       "that reach a HIP header)", err=True)
    if not quiet:
        click.echo(f"hipcc: {shown_path(compiler.path)}; chosen: {compiler.reason}", err=True)
    click.echo(verification.summary, err=True)


def verify_converted(request: Request, targets: list[tuple[Path, Path]], quiet: bool,
                     color: str, strict: bool) -> int:
    """After `convert -o OUT` or `--in-place`: verify the written tree, the
    findings placed in the CUDA originals where lines map."""
    verification = compile_tree(replace(request, originals=tuple(targets)), quiet, color,
                                "hipport convert --verify")
    print_text(verification, quiet)
    return verify_exit_code(verification, strict)
