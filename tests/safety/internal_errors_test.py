"""A crash on one file is contained; conversions that would break the file or
are not stable are refused and the file is kept."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.rules import FILE_RULES, Context, FileRule, RuleRole

CUDA = b"void f(float* p) { cudaFree(p); }\n"
RUNTIME = b"#include <hip/hip_runtime.h>\n"  # what a host-only .cu file gains


def run(*args: str):
    return CliRunner().invoke(cli, ["convert", *args, "-j", "1", "--no-cache"],
                              catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a.cu", "boom.cu", "c.cu"):
        (src / name).write_bytes(CUDA + f"// {name}\n".encode())
    return src


def _rule(monkeypatch, rule) -> None:
    monkeypatch.setitem(FILE_RULES, "test-rule",
                        FileRule("test-rule", rule, frozenset({"HP101"}), RuleRole.HAZARD))


def test_one_files_crash_is_reported_and_the_run_goes_on(tree: Path, monkeypatch):
    def crash(ctx: Context) -> Iterator[Finding]:
        if b"boom" in ctx.data:
            raise ZeroDivisionError("simulated bug")
        yield from ()
    _rule(monkeypatch, crash)
    result = run(str(tree), "--in-place")
    assert result.exit_code == 1
    assert "boom.cu:1:1: HP006 internal error: ZeroDivisionError: simulated bug" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tree / "boom.cu").read_bytes() == CUDA + b"// boom.cu\n"
    assert (tree / "a.cu").read_bytes().startswith(RUNTIME + b"void f(float* p) { hipFree(p); }")
    assert (tree / "c.cu").read_bytes().startswith(RUNTIME + b"void f(float* p) { hipFree(p); }")
    assert "2 files converted, 0 unchanged, 1 failed" in result.stderr
    debug = run(str(tree / "boom.cu"), "--diff", "--debug")
    assert "Traceback (most recent call last)" in debug.stderr and "simulated bug" in debug.stderr


def test_a_fix_that_would_break_the_parse_is_withheld_and_the_rest_applied(tree: Path,
                                                                           monkeypatch):
    def breaker(ctx: Context) -> Iterator[Finding]:
        at = ctx.data.find(b"}")
        if b"boom" in ctx.data and at >= 0:
            yield Finding("HP101", "test", at, at + 1, fix=Fix((Edit(at, at + 1, b"{"),)))
    _rule(monkeypatch, breaker)
    result = run(str(tree), "--in-place")
    assert result.exit_code == 0  # converted, with a finding that leaves work (as HP901)
    assert "boom.cu:1:33: HP011 not applied: with it the converted text would not parse" \
        in result.stderr
    assert "HP003" not in result.stderr
    # The rename of the same code is put back; the breaking edit is not.
    assert (tree / "boom.cu").read_bytes() == RUNTIME + CUDA.replace(b"cudaFree", b"hipFree") \
        + b"// boom.cu\n"
    assert b"hipFree" in (tree / "a.cu").read_bytes()


def test_fixes_of_two_codes_that_each_break_the_parse_leave_the_file_unchanged(tree: Path,
                                                                              monkeypatch):
    def breakers(ctx: Context) -> Iterator[Finding]:
        if b"boom" in ctx.data:
            at = ctx.data.find(b"{")
            yield Finding("HP101", "test", at, at + 1, fix=Fix((Edit(at, at + 1, b"}"),)))
            at = ctx.data.find(b"}")
            yield Finding("HP110", "test", at, at + 1, fix=Fix((Edit(at, at + 1, b"{"),)))
    monkeypatch.setitem(FILE_RULES, "test-rule", FileRule(
        "test-rule", breakers, frozenset({"HP101", "HP110"}), RuleRole.HAZARD))
    result = run(str(tree), "--in-place")
    assert result.exit_code == 1
    assert "HP003 the converted text would not parse; file left unchanged" in result.stderr
    assert (tree / "boom.cu").read_bytes() == CUDA + b"// boom.cu\n"
    assert b"hipFree" in (tree / "a.cu").read_bytes()


def test_an_unstable_conversion_is_an_internal_error_and_not_written(tree: Path, monkeypatch):
    def grows(ctx: Context) -> Iterator[Finding]:
        if b"boom" in ctx.data:  # always finds more to do: never a fixed point
            end = len(ctx.data)  # not where the runtime include goes
            yield Finding("HP101", "grow", end, end, fix=Fix((Edit(end, end, b" "),)))
    _rule(monkeypatch, grows)
    result = run(str(tree), "--in-place")
    assert result.exit_code == 1
    assert "HP004 converting twice is not stable" in result.stderr
    assert (tree / "boom.cu").read_bytes() == CUDA + b"// boom.cu\n"


def test_a_bug_outside_any_file_is_one_line_or_a_traceback_with_debug(tree: Path, monkeypatch):
    import hipport.commands.convert as convert_command
    from hipport.cli import main

    def broken(*args, **kwargs):
        raise ZeroDivisionError("simulated bug in the pipeline")
    monkeypatch.setattr(convert_command, "plan", broken)
    monkeypatch.setattr("sys.argv", ["hipport"])  # --debug is read from main's arguments
    assert main(["convert", str(tree)]) == 2
    with pytest.raises(ZeroDivisionError):
        main(["convert", str(tree), "--debug"])
