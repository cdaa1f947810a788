"""Command line: parse options, call the core, print, exit.  No logic here."""
from __future__ import annotations

import functools
import gc
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

import click

from hipport.commands import helptext
from hipport.commands.help import HelpfulGroup, SectionedCommand
from hipport.errors import HipportError
from hipport.output import FORMATS as OUTPUT_FORMATS
from hipport.output.style import COLOR_CHOICES
from hipport.settings import LAUNCH_SYNTAXES, POLYFILL_CHOICES
from hipport.strategies import DEFAULT as DEFAULT_STRATEGY
from hipport.strategies import NAMES as STRATEGIES
from hipport.table.versions import DEFAULT_TARGET, OLDEST_VERIFIED, release_text
from hipport.version import __version__

EXIT_OK, EXIT_ERROR = 0, 2
ROCM_VERSION_HELP = (f"Target ROCm release, {release_text(OLDEST_VERIFIED)} or newer (default: "
                     f"{release_text(DEFAULT_TARGET)}, the newest hipport verifies): HIP names "
                     "it lacks are left unchanged (HP905).")
ASSUME_CUDA_HELP = ("CUDA release the code is written for (default: 12.0): CUDA version tests "
                    "in #if conditions (CUDART_VERSION >= 11020) are resolved for it (HP309).")
POLYFILLS_HELP = ("Which fallbacks of the generated polyfill header emulate CUDA APIs ROCm lacks "
                  "(docs/polyfills.md): safe (the same results: exact, hint dropped), all "
                  "(also slower and approximate ones), none.")
_POLYFILLS = click.option("--polyfills", type=click.Choice(list(POLYFILL_CHOICES)),
                          default="safe", show_default=True, help=POLYFILLS_HELP)
ROC_HELP = ("Convert cuBLAS and cuRAND to rocBLAS and rocRAND themselves rather than to their "
            "hipBLAS and hipRAND wrappers (HIPIFY's --roc); cuFFT stays hipFFT.")
_ROC = click.option("--roc", is_flag=True, help=ROC_HELP)
NO_SANDBOX_HELP = ("Run the build's CMake and Make code without the sandbox (bubblewrap), "
                   "with your rights, files and network: only for code you trust.")
# What a Unix tool killed by SIGPIPE exits with (`hipport ... | head`).
EXIT_BROKEN_PIPE = 128 + 13


def _quiet_broken_pipe() -> int:
    """The reader of our output went away (`| head`): stop quietly, and make
    sure the interpreter's last flush of stdout does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (a test runner's buffer)
        pass
    return EXIT_BROKEN_PIPE


class _Group(HelpfulGroup):
    """Maps errors to exit codes in one place (pre-commit's error_handler)."""

    def invoke(self, ctx: click.Context) -> object:
        # The subcommand's options are not parsed yet: look at its arguments.
        debug = "--debug" in ctx.args
        signals: list[int] = []

        def on_signal(signum: int, frame: Any) -> None:
            # Remembered: a C extension can turn the KeyboardInterrupt into
            # its own error (tree-sitter: "regular expression error"), and a
            # broken worker pool can surface before the interrupt does.
            # SIGTERM (and SIGHUP: the terminal closed) is Ctrl-C by another
            # name: stop cleanly (verify removes its build folder), exit 143 (129).
            signals.append(signum)
            signal.default_int_handler(signum, frame)

        main = threading.current_thread() is threading.main_thread()
        handled: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)
        if main and signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:  # nohup: ignored
            handled += (signal.SIGHUP,)
        previous = [signal.signal(s, on_signal) for s in handled] if main else []
        try:
            return self._invoke(ctx, debug, signals)
        finally:
            for signum, handler in zip(handled, previous):
                if handler is not None:
                    signal.signal(signum, handler)

    @staticmethod
    def _stopped(ctx: click.Context, signals: list[int]) -> None:
        signum = signals[0] if signals else signal.SIGINT
        words: dict[int, str] = {signal.SIGTERM: "terminated", signal.SIGHUP: "hung up"}
        word = words.get(signum, "interrupted")
        click.echo(f"hipport: {word}", err=True)
        ctx.exit(128 + signum)

    def _invoke(self, ctx: click.Context, debug: bool, signals: list[int]) -> object:
        try:
            return super().invoke(ctx)
        except HipportError as exc:
            if signals:
                self._stopped(ctx, signals)
            click.echo(f"hipport: error: {exc}", err=True)
            ctx.exit(EXIT_ERROR)
        except KeyboardInterrupt:
            self._stopped(ctx, signals)
        except BrokenPipeError:
            ctx.exit(_quiet_broken_pipe())
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as exc:  # a bug: say so, with what is needed to report it
            if signals:
                self._stopped(ctx, signals)
            if debug:
                raise
            click.echo(f"hipport: internal error: {type(exc).__name__}: {exc}\n"
                       f"Please report this with hipport {__version__}, Python "
                       f"{sys.version.split()[0]}, and re-run with --debug for a traceback.",
                       err=True)
            ctx.exit(EXIT_ERROR)
        return None


def _front_end_options(func: Callable[..., None]) -> Callable[..., None]:
    """Adds the front-end options and hands the command one `front_end` value."""

    @functools.wraps(func)
    def wrapper(*args: Any, semantic: bool, compile_commands: Path | None,
                cuda_path: Path | None, extra_arg: Sequence[str], cuda_include: Sequence[str],
                **kwargs: Any) -> None:
        from hipport.request import FrontEnd

        front_end = FrontEnd(semantic, compile_commands, cuda_path, tuple(extra_arg),
                             tuple(cuda_include))
        func(*args, front_end=front_end, **kwargs)

    options = [
        click.option("--semantic", is_flag=True, help="Use the libclang front end (exact "
                     "declarations, macro-hidden APIs); falls back per file."),
        click.option("-p", "--compile-commands", type=click.Path(path_type=Path),
                     help="compile_commands.json (or its folder): flags for the semantic "
                     "front end; implies --semantic."),
        click.option("--cuda-path", type=click.Path(path_type=Path),
                     help="CUDA toolkit for --semantic (default: /usr/local/cuda)."),
        click.option("--extra-arg", multiple=True, metavar="ARG",
                     help="Extra compiler argument for --semantic (repeatable)."),
        click.option("--cuda-include", multiple=True, metavar="DIR",
                     help="More directories whose headers are CUDA's (for --semantic)."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def _configure_options(when: str) -> list[Any]:
    """-D and --make-var: the options a user configures the build with."""
    return [
        click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
                     help=f"{when}A CMake cache entry for the build, as `cmake -D` takes it "
                     "(repeatable), e.g. -D MODEL=hip or -D USE_HIP=ON; it also decides the "
                     "if() branches --units reads."),
        click.option("--make-var", "make_vars", multiple=True, metavar="NAME=VALUE",
                     help=f"{when}A make variable for the build, as `make NAME=VALUE` takes it "
                     "(repeatable), e.g. --make-var GPU=1; --units reads the Makefiles' flags "
                     "with it too."),
    ]


def _findings_options(default_format: str, statistics_help: str) -> list[Any]:
    return [
        click.option("--output-format", "output_format", default=default_format,
                     type=click.Choice(list(OUTPUT_FORMATS)),
                     help="How findings are listed: concise (each explanation once), text "
                     "(every message whole), json, sarif (code scanning), github "
                     "(annotations)."),
        click.option("--statistics", is_flag=True, help=statistics_help),
        click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto",
                     help="Colour findings and diffs: auto (a terminal, unless NO_COLOR is "
                     "set), always, never."),
    ]


def _with(options: list[Any]) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def decorate(func: Callable[..., None]) -> Callable[..., None]:
        for option in reversed(options):
            func = option(func)
        return func
    return decorate


@click.group(cls=_Group, invoke_without_command=True, epilog=helptext.QUICK_START,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hipport")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Port CUDA C++ code to AMD HIP/ROCm: estimate the migration, convert the
    code and its build files, and keep it portable."""
    if ctx.invoked_subcommand is None:  # `hipport` alone: the help, and no error
        click.echo(ctx.get_help())
        ctx.exit(EXIT_OK)


@cli.command(cls=SectionedCommand, sections=helptext.CONVERT_SECTIONS,
             epilog=helptext.CONVERT_EPILOG,
             short_help="Convert CUDA sources and build files to HIP.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", "output", type=click.Path(path_type=Path),
              help="Write the converted tree here (mirrors the input tree).")
@click.option("--in-place", is_flag=True, help="Rewrite files in place (atomic replace).")
@click.option("--backup", metavar="SUFFIX", help="With --in-place: keep each rewritten "
              "file's original as NAME+SUFFIX (e.g. .orig).")
@click.option("--diff", is_flag=True, help="Print a unified diff; write nothing.")
@click.option("--force", is_flag=True, help="Allow writing into a non-empty output directory.")
@click.option("--prune", is_flag=True, help="With -o: remove files in DIR whose source is gone "
              "(deleted or renamed since an earlier run); they are only listed otherwise.")
@click.option("--include", "include", multiple=True, metavar="GLOB",
              help="Only convert files matching GLOB (repeatable).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="Skip files matching GLOB (repeatable).")
@click.option("--strategy", type=click.Choice(STRATEGIES), default=DEFAULT_STRATEGY,
              show_default=True,
              help="rewrite: CUDA names become HIP names; compat: keep the CUDA code, "
              "generate a header that maps it for AMD and give the build files a HIP switch "
              "(docs/single-source.md).")
@click.option("--launch-syntax", type=click.Choice(LAUNCH_SYNTAXES), default="keep",
              show_default=True, help="Keep <<<...>>> launches or emit hipLaunchKernelGGL.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--rocm-version", metavar="X.Y", help=ROCM_VERSION_HELP)
@click.option("--assume-cuda-version", metavar="X.Y", help=ASSUME_CUDA_HELP)
@_POLYFILLS
@_ROC
@click.option("--rules", "rules", multiple=True, type=click.Path(path_type=Path),
              metavar="FILE", help="Extra mapping YAML file; overrides the catalogue.")
@click.option("--strict", is_flag=True, help="Exit 1 when unconverted references remain or "
              "a change needs confirming (HP411).")
@click.option("-j", "--jobs", type=int, default=0, help="Processes to use (0: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary line (no progress "
              "bar, no findings).")
@click.option("-v", "--verbose", is_flag=True, help="List every finding, converted ones too "
              "([fixed]).")
@click.option("--show-fixes", is_flag=True, help="Show each fix under its finding, before and "
              "after.")
@_with(_findings_options("concise", "Count the findings per code instead of listing them."))
@click.option("--fast", is_flag=True, help="Skip the second-pass stability check.")
@click.option("--no-build-files", is_flag=True,
              help="Leave CMakeLists.txt, *.cmake and Makefiles alone.")
@click.option("--no-cache", is_flag=True, help="Do not reuse results of unchanged files.")
@click.option("--offload-arch", metavar="gfx90a;gfx942",
              help="AMD GPU targets written into converted build files "
              "(default: gfx90a;gfx942); their wavefront size bounds cooperative-groups "
              "tiles (HP412), gfx942 has no texture units (HP413).")
@click.option("--verify", is_flag=True, help="Then build the converted tree with its own "
              "CMakeLists.txt or Makefiles (without one: compile every converted translation "
              "unit) and report what fails (docs/verify.md).")
@click.option("--verify-units", is_flag=True, help="Then compile every converted translation "
              "unit alone with hipcc, as its build would, and report the ones that fail.")
@click.option("--hipcc", metavar="PATH", help="The hipcc for --verify (default: $HIPCC, "
              "hipport's ROCm toolchain, $ROCM_PATH, /opt/rocm, hipcc on PATH).")
@click.option("--hipcc-arg", "hipcc_arg", multiple=True, metavar="ARG",
              help="Extra hipcc argument for --verify (repeatable), e.g. -I/opt/extra/include.")
@click.option("--no-sandbox", is_flag=True, help=NO_SANDBOX_HELP)
@_with(_configure_options("With --verify: "))
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@click.option("--compat-header", metavar="PATH", help="compat: the generated header, relative "
              "to the folder converted (default: its hip_compat.h, or the tree's, generated "
              "in a folder above it).")
@click.option("--compat-macro", metavar="NAME", help="compat: the macro that selects the AMD "
              "build (default: the one the tree's header uses, else __HIP_PLATFORM_AMD__ or "
              "hipcc's __HIP__).")
@_front_end_options
def convert(paths: Sequence[Path], output: Path | None, in_place: bool, backup: str | None,
            diff: bool, force: bool, include: Sequence[str], exclude: Sequence[str],
            strategy: str, launch_syntax: str, unsafe_fixes: bool, rocm_version: str | None,
            assume_cuda_version: str | None, polyfills: str, roc: bool, rules: Sequence[Path],
            strict: bool, jobs: int,
            quiet: bool, verbose: bool, show_fixes: bool, output_format: str, statistics: bool,
            color: str, prune: bool,
            fast: bool, no_build_files: bool, no_cache: bool, offload_arch: str | None,
            verify: bool, verify_units: bool, hipcc: str | None, hipcc_arg: Sequence[str],
            no_sandbox: bool, defines: Sequence[str], make_vars: Sequence[str], debug: bool,
            compat_header: str | None, compat_macro: str | None,
            front_end: Any) -> None:
    """Convert the CUDA sources under PATHS (and their CMakeLists.txt and
    Makefiles) to HIP: into a mirror (-o DIR), in place, or as a diff.
    --verify then runs the repository's own CMake and Make code, in a
    sandbox without network that can write only its build folder."""
    from hipport.commands.convert import AfterConvert, convert_mode, run_convert
    from hipport.commands.listing import Shown
    from hipport.files import Selection
    from hipport.request import Request
    from hipport.strategies import strategy_named
    from hipport.values import build_settings, configuration, offload_targets

    request = Request(
        tuple(paths), convert_mode(output, in_place, diff),
        build_settings(launch_syntax, unsafe_fixes, rocm_version, fast, assume_cuda_version,
                       offload_arch, polyfills, roc),
        Selection(tuple(include), tuple(exclude), build_files=not no_build_files), front_end,
        tuple(str(r) for r in rules), jobs, cache=not no_cache, debug=debug, output=output,
        force=force, backup=backup, strategy=strategy_named(
            strategy, {"--compat-header": compat_header, "--compat-macro": compat_macro}))
    shown = Shown(quiet, verbose, show_fixes, output_format, statistics, color)
    after = AfterConvert(strict, prune, verify or verify_units, hipcc, tuple(hipcc_arg),
                         offload_targets(offload_arch) if offload_arch else (),
                         verify_units=verify_units, sandbox=not no_sandbox,
                         configuration=configuration(defines, make_vars))
    raise SystemExit(run_convert(request, shown, after))


@cli.group(cls=HelpfulGroup, epilog=helptext.MAPPINGS_EPILOG,
           short_help="Inspect, validate and document the mapping catalogue.")
def mappings() -> None:
    """Inspect, validate and document the mapping catalogue: what hipport
    knows about each CUDA name and its HIP counterpart."""


_RULES = click.option("--rules", "rules", multiple=True, metavar="FILE",
                      help="Extra mapping YAML file; overrides the catalogue.")


@mappings.command("list")
@click.option("--library", help="Only this library (e.g. cublas; unknown names are an error).")
@click.option("--status", type=click.Choice(["supported", "deprecated", "unsupported", "removed"]))
@click.option("--roc", is_flag=True, help="The targets of `convert --roc` (rocBLAS, rocRAND) "
              "in the HIP column.")
@_RULES
def mappings_list(library: str | None, status: str | None, roc: bool,
                  rules: Sequence[str]) -> None:
    """List entries: CUDA, HIP, kind, library, status (tab separated)."""
    from hipport.commands.mappings import list_entries

    raise SystemExit(list_entries(rules, library, status, roc))


@mappings.command("show")
@click.argument("names", nargs=-1, required=True)
@_RULES
def mappings_show(names: Sequence[str], rules: Sequence[str]) -> None:
    """Show everything the catalogue knows about NAMES."""
    from hipport.commands.mappings import show

    raise SystemExit(show(names, rules))


@mappings.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def mappings_validate(files: Sequence[Path]) -> None:
    """Validate mapping YAML files (your --rules files, or the catalogue's)."""
    from hipport.commands.mappings import validate

    raise SystemExit(validate(files))


@mappings.command("stats")
@_RULES
def mappings_stats(rules: Sequence[str]) -> None:
    """Coverage per library: public CUDA names in the headers vs catalogued."""
    from hipport.commands.mappings import stats

    raise SystemExit(stats(rules))


@mappings.command("docs")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=Path("docs/mappings"),
              show_default=True)
@click.option("--check", is_flag=True, help="Only check the pages are current (exit 1 if not).")
def mappings_docs(output: Path, check: bool) -> None:
    """Write the Markdown reference pages generated from the catalogue."""
    from hipport.commands.mappings import write_docs

    raise SystemExit(write_docs(output, check))


@cli.command(cls=SectionedCommand, sections=helptext.REPORT_SECTIONS,
             epilog=helptext.REPORT_EPILOG,
             short_help="Estimate a migration: rates, unmapped APIs, hazards, effort.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-f", "--format", "fmt", default=None,
              type=click.Choice(["text", "json", "md", "markdown", "html", "csv", "sarif"]),
              help="Report format  [default: from the -o file's extension, else text]")
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write the report here "
              "(.html, .md, .json, .csv, .sarif choose the format).")
@click.option("--include", multiple=True, metavar="GLOB", help="Only files matching GLOB.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching GLOB.")
@click.option("--unsafe-fixes", is_flag=True, help="Count unsafe renames as converted.")
@click.option("--rocm-version", metavar="X.Y", help=ROCM_VERSION_HELP)
@click.option("--assume-cuda-version", metavar="X.Y", help=ASSUME_CUDA_HELP)
@_POLYFILLS
@_ROC
@click.option("--rules", multiple=True, metavar="FILE", help="Extra mapping YAML file.")
@click.option("--config", type=click.Path(path_type=Path), help="Configuration file (TOML/YAML).")
@click.option("-j", "--jobs", type=int, default=0, help="Processes to use (0: all cores).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary line.")
@click.option("--no-build-files", is_flag=True, help="Leave build files out of the report.")
@click.option("--no-cache", is_flag=True, help="Do not reuse results of unchanged files.")
@click.option("--verify", "verify_build", is_flag=True,
              help="Convert into a scratch folder, build it, and bill from the errors left.")
@click.option("--timeout", type=float, default=300.0, show_default=True, metavar="SECONDS",
              help="With --verify: time limit of each compile.")
@click.option("--no-sandbox", is_flag=True, help=NO_SANDBOX_HELP)
@_with(_configure_options("With --verify: "))
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@_front_end_options
def report(paths: Sequence[Path], fmt: str | None, output: Path | None,
           include: Sequence[str], exclude: Sequence[str], unsafe_fixes: bool,
           rocm_version: str | None, assume_cuda_version: str | None, polyfills: str, roc: bool,
           rules: Sequence[str], config: Path | None, jobs: int, quiet: bool,
           no_build_files: bool, no_cache: bool, verify_build: bool, timeout: float,
           no_sandbox: bool, defines: Sequence[str], make_vars: Sequence[str], debug: bool,
           front_end: Any) -> None:
    """Estimate a migration: conversion and reuse rates, the unmapped-API
    ledger, hazards and person-days, as text, json, md, html, csv or sarif.
    --verify builds the converted tree with the repository's own CMake and
    Make code, in a sandbox without network that can write only its build
    folder."""
    from hipport.commands.report import run_report
    from hipport.report.run import ReportRequest
    from hipport.values import configuration, time_limit

    raise SystemExit(run_report(ReportRequest(
        tuple(paths), fmt, output, tuple(include), tuple(exclude), unsafe_fixes,
        rocm_version, tuple(rules), config, jobs, quiet, debug,
        build_files=not no_build_files, front_end=front_end, cache=not no_cache,
        assume_cuda_version=assume_cuda_version, polyfills=polyfills, roc=roc,
        verify=verify_build,
        timeout=time_limit("--timeout", timeout), sandbox=not no_sandbox,
        configuration=configuration(defines, make_vars))))


@cli.command(cls=SectionedCommand, sections=helptext.CHECK_SECTIONS,
             epilog=helptext.CHECK_EPILOG,
             short_help="Fail on new CUDA-only code (pre-commit, CI); writes nothing.")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--policy", type=click.Choice(["no-unmapped", "hip-only", "compat"]),
              help="no-unmapped (default): fail on CUDA APIs without a HIP equivalent; "
              "hip-only: fail on any CUDA reference; compat: fail on a CUDA name the compat "
              "header does not map.")
@click.option("--fail-on", multiple=True, metavar="CODES",
              help="Codes or prefixes that fail (e.g. HP9,HP502); replaces the policy's set.")
@click.option("--ignore", multiple=True, metavar="CODES",
              help="Codes or prefixes that never fail (added to the configured ones).")
@click.option("--staged", is_flag=True, help="Only lines added in the staged changes count.")
@click.option("--diff-base", metavar="REV",
              help="Only lines added since the merge base of REV and HEAD count.")
@click.option("--baseline", type=click.Path(path_type=Path),
              help="Baseline file (default: .hipport-baseline.json next to the config).")
@click.option("--no-baseline", is_flag=True, help="Ignore the baseline: every violation fails.")
@click.option("--write-baseline", is_flag=True,
              help="Record the current violations as known (exit 0).")
@click.option("--report-unused-suppressions", is_flag=True,
              help="Fail on `// hipport: ignore` comments that suppress nothing.")
@click.option("--compat-header", metavar="PATH", help="--policy compat: the generated header, "
              "relative to the current folder (default: the tree's hip_compat.h, in the first "
              "file's folder or the nearest one above it).")
@_with(_findings_options("text", "Count the violations per code instead of listing them."))
@click.option("--config", type=click.Path(path_type=Path), help="Configuration file.")
@click.option("--include", multiple=True, metavar="GLOB", help="Only files matching GLOB.")
@click.option("--exclude", multiple=True, metavar="GLOB", help="Skip files matching GLOB.")
@click.option("--rules", multiple=True, metavar="FILE", help="Extra mapping YAML file.")
@click.option("--rocm-version", metavar="X.Y", help=ROCM_VERSION_HELP)
@click.option("--assume-cuda-version", metavar="X.Y", help=ASSUME_CUDA_HELP)
@_POLYFILLS
@_ROC
@click.option("-j", "--jobs", type=int, default=0,
              help="Processes (0: one for a few files, all cores for many).")
@click.option("-q", "--quiet", is_flag=True, help="Print violations only.")
@click.option("--no-build-files", is_flag=True, help="Leave build files out of the check.")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@_front_end_options
def check(paths: Sequence[Path], policy: str | None, fail_on: Sequence[str],
          ignore: Sequence[str], staged: bool, diff_base: str | None, baseline: Path | None,
          no_baseline: bool, write_baseline: bool, report_unused_suppressions: bool,
          output_format: str, statistics: bool, color: str, config: Path | None,
          include: Sequence[str], exclude: Sequence[str], rules: Sequence[str],
          rocm_version: str | None, assume_cuda_version: str | None, polyfills: str, roc: bool,
          jobs: int,
          quiet: bool,
          no_build_files: bool, debug: bool, compat_header: str | None,
          front_end: Any) -> None:
    """Fail (exit 1) when PATHS add CUDA code the policy forbids; for
    pre-commit hooks and CI.  Reads files, writes nothing (but the baseline)."""
    from hipport.check.session import CheckRequest
    from hipport.commands.check import run_check
    from hipport.files import Selection
    from hipport.values import build_settings

    raise SystemExit(run_check(CheckRequest(
        tuple(paths), policy, tuple(fail_on), tuple(ignore), staged, diff_base, baseline,
        no_baseline, write_baseline, report_unused_suppressions, config,
        Selection(tuple(include), tuple(exclude), build_files=not no_build_files),
        tuple(rules),
        # Nothing is written: the second conversion pass that guards writes is skipped.
        build_settings(rocm_version=rocm_version, fast=True,
                       assume_cuda_version=assume_cuda_version, polyfills=polyfills, roc=roc),
        jobs,
        debug, front_end,
        compat_header or ""),
        output_format, quiet, statistics, color))


@cli.command(cls=SectionedCommand, sections=helptext.VERIFY_SECTIONS,
             epilog=helptext.VERIFY_EPILOG,
             short_help="Build a converted tree (or compile its units); report what fails.")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--build/--units", "build", default=None,
              help="Build each project with its own CMakeLists.txt or Makefile (the default "
              "when every path has one), or compile each translation unit alone (the "
              "default otherwise).")
@click.option("--build-dir", type=click.Path(path_type=Path), metavar="DIR",
              help="--build: build in DIR (outside the tree; kept) instead of a temporary "
              "folder.")
@click.option("--build-system", metavar="NAME", help="--build: build the projects of this "
              "build system only, e.g. make where a folder has a CMakeLists.txt and a Makefile "
              "(default: all; CMake first).")
@click.option("--no-sandbox", is_flag=True, help=NO_SANDBOX_HELP)
@_with(_configure_options(""))
@click.option("--hipcc", metavar="PATH", help="The HIP compiler (default: $HIPCC, "
              "hipport's ROCm toolchain, $ROCM_PATH, /opt/rocm, hipcc on PATH; "
              "docs/verify.md).")
@click.option("--offload-arch", metavar="gfx90a",
              help="AMD GPU target(s), ';'-separated (default: the first the build files "
              "name, else gfx90a).")
@click.option("-p", "--compile-commands", type=click.Path(path_type=Path),
              help="compile_commands.json (or its folder): its entries are the units to "
              "compile, with their flags (default: one at the top of PATH or in build/).")
@click.option("--hipcc-arg", "hipcc_arg", multiple=True, metavar="ARG",
              help="Extra hipcc argument (repeatable), e.g. -I/opt/extra/include.")
@click.option("--syntax-only", is_flag=True, help="Check syntax and types only "
              "(-fsyntax-only): faster, but misses errors of device code generation.")
@click.option("--timeout", type=float, default=None, metavar="SECONDS",
              help="Stop a translation unit's compiler (default 300), or a build step "
              "(default 1800), after this long (HP021).")
@click.option("-j", "--jobs", type=int, default=0, help="Compilers at once (0: all cores).")
@click.option("-f", "--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json"]),
              help="text (findings and the summary on stderr) or json (stdout).")
@click.option("--strict", is_flag=True, help="Exit 1 when a project does not build or a "
              "translation unit does not compile.")
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary line.")
@click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto",
              help="Colour the progress bar: auto, always, never.")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
def verify(paths: Sequence[Path], build: bool | None, build_dir: Path | None,
           build_system: str | None, no_sandbox: bool, defines: Sequence[str],
           make_vars: Sequence[str], hipcc: str | None, offload_arch: str | None,
           compile_commands: Path | None, hipcc_arg: Sequence[str], syntax_only: bool,
           timeout: float | None, jobs: int, fmt: str, strict: bool, quiet: bool, color: str,
           debug: bool) -> None:
    """Build a converted tree with its own CMakeLists.txt or Makefiles and
    the HIP toolchain, outside the tree, and report each failure at its
    source line; or (--units) compile every translation unit alone with
    hipcc, as its build would, and report each one that fails at its first
    error.  A build runs the repository's own CMake and Make code: in a
    sandbox (bubblewrap) without network that can write only its build
    folder."""
    from hipport.commands.verify import run_verify
    from hipport.values import configuration, time_limit
    from hipport.verify import BUILD, UNITS, Request

    mode = None if build is None else BUILD if build else UNITS
    raise SystemExit(run_verify(Request(
        tuple(paths), hipcc, _arch_list(offload_arch), compile_commands, tuple(hipcc_arg),
        syntax_only, time_limit("--timeout", timeout) if timeout is not None else None, jobs,
        mode=mode, build_dir=build_dir, build_system=build_system, sandbox=not no_sandbox,
        configuration=configuration(defines, make_vars)),
        fmt, strict, quiet, color))



def _arch_list(value: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    from hipport.values import offload_targets

    return offload_targets(value)


@cli.command(cls=SectionedCommand, epilog=helptext.DOCTOR_EPILOG,
             short_help="Is this machine (and ROCm) ready for this HIP code?")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("-f", "--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json"]))
@click.option("--root", type=click.Path(path_type=Path), metavar="DIR",
              help="The ROCm installation to check (default: ROCM_PATH, /opt/rocm, ... /usr).")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
def doctor(paths: Sequence[Path], fmt: str, root: Path | None, debug: bool) -> None:
    """Is this machine ready to build and run HIP code?  With PATHS: does it
    have the libraries and the ROCm version that code needs?  Exit 1 when
    something the code needs is missing."""
    from hipport.commands.doctor import DoctorRequest, run_doctor

    raise SystemExit(run_doctor(DoctorRequest(tuple(paths), fmt, root)))


@cli.command(cls=SectionedCommand, epilog=helptext.EXPLAIN_EPILOG,
             short_help="Explain a diagnostic code; without one, list them all.")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every code with its summary.")
@click.option("--color", type=click.Choice(COLOR_CHOICES), default="auto",
              help="Render the explanation for the terminal: auto, always, never.")
def explain(code: str | None, show_all: bool, color: str) -> None:
    """Explain a diagnostic code (HP901) or name (unsupported-cuda-api): what it
    means, why it matters on AMD GPUs, what to do, which policies fail on it."""
    from hipport.commands.explain import run_explain

    raise SystemExit(run_explain(code, show_all, color))


def _tune_garbage_collector() -> None:
    """A run allocates millions of small, acyclic objects (findings, edits,
    syntax nodes) and keeps its results until the end; with Python's default
    thresholds the cyclic collector re-scans that growing heap over and over
    (1.3 s of a 7.5 s run on 1,700 files).  The process is ours: move what the
    imports made out of the collector's sight and collect far less often."""
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


def main(argv: Sequence[str] | None = None) -> int:
    _tune_garbage_collector()
    try:
        cli.main(args=list(argv) if argv is not None else None, prog_name="hipport",
                 standalone_mode=True)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BrokenPipeError:  # while click itself wrote (the help into `| head`)
        return _quiet_broken_pipe()
    else:
        code = EXIT_OK
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the last buffered lines met a closed pipe
        return _quiet_broken_pipe()
    return code
