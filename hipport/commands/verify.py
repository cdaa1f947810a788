"""`hipport verify` and `convert --verify`: compile the converted tree,
print the first error of each failing translation unit and the summary."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from hipport.filenames import display_path, shown_path
from hipport.output.progress import progress_bar
from hipport.output.style import color_wanted, interactive
from hipport.verify import Request, Verification, run
from hipport.verify.render import render_json, text_lines

FORMATS = ("text", "json")


def verify_exit_code(verification: Verification, strict: bool) -> int:
    return 1 if strict and verification.failed else 0


def run_verify(request: Request, fmt: str = "text", strict: bool = False, quiet: bool = False,
               color: str = "auto") -> int:
    """Compile, print, and return the exit code (1: --strict and a unit failed)."""
    verification = compile_tree(request, quiet, color)
    code = verify_exit_code(verification, strict)
    if fmt == "json":
        render_json(verification, sys.stdout, display_path, code)
    else:
        print_text(verification, quiet)
    return code


def compile_tree(request: Request, quiet: bool, color: str) -> Verification:
    show = not quiet and interactive(sys.stderr)
    with progress_bar("compiling", None, enabled=show, color=color_wanted(color, sys.stderr),
                      first="finding translation units") as bar:
        return run(request, observe=bar, found=bar.expect)


def print_text(verification: Verification, quiet: bool) -> None:
    if not quiet:
        for line in text_lines(verification, display_path):
            click.echo(line, err=True)
    if not verification.results:
        click.echo("hipport: no translation units to compile (.hip, .cu, or C++ sources "
                   "that include a HIP header)", err=True)
    if not quiet:
        compiler = verification.compiler
        click.echo(f"hipcc: {shown_path(compiler.path)}; chosen: {compiler.reason}", err=True)
    click.echo(verification.summary, err=True)


def verify_converted(request: Request, targets: list[tuple[Path, Path]], quiet: bool,
                     color: str, strict: bool) -> int:
    """After `convert -o OUT` or `--in-place`: verify the written tree, the
    findings placed in the CUDA originals where lines map."""
    verification = compile_tree(replace(request, originals=tuple(targets)), quiet, color)
    print_text(verification, quiet)
    return verify_exit_code(verification, strict)
