"""`--help` and `hipport` alone (issue 19, item 10): the help with a quick
start and exit 0, whole command summaries, convert's options in sections,
examples and exit codes in every command's help, shell completion."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.conftest import REPO

COMMANDS = ("check", "convert", "doctor", "explain", "mappings", "report", "verify")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), prog_name="hipport", catch_exceptions=False)


def test_no_arguments_prints_the_help_and_exits_0():
    result = run()
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: hipport")
    assert "Quick start:\n  hipport report path/to/cuda-repo" in result.stdout
    assert "  hipport convert path/to/cuda-repo -o hip-repo" in result.stdout
    assert run("--help").stdout == result.stdout


def test_command_list_is_never_cut_mid_sentence():
    listing = run().stdout.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    rows = {line.split()[0]: line.split(None, 1)[1] for line in listing.splitlines()
            if line.startswith("  ") and not line.startswith("    ")}
    assert sorted(rows) == sorted(COMMANDS)
    for name, summary in rows.items():
        assert not summary.endswith(("...", "(e.g.")), (name, summary)
    assert rows["explain"] == "Explain a diagnostic code; without one, list them all."


def test_convert_options_are_grouped_with_defaults():
    text = run("convert", "--help").stdout
    sections = [line[:-1] for line in text.splitlines() if line.endswith(":")
                and not line.startswith(" ")]
    for title in ("Selection", "Conversion", "Build files", "Semantic mode", "Findings"):
        assert title in sections
    assert any(title.startswith("Output") for title in sections)
    output = text.split("Output", 1)[1].split("\n\n", 1)[0]
    assert "--in-place" in output and "--prune" in output and "--semantic" not in output
    semantic = text.split("Semantic mode:", 1)[1].split("\n\n", 1)[0]
    assert "--compile-commands" in semantic and "--cuda-path" in semantic
    assert "[default: keep]" in text and "[default: concise]" in text
    assert "PATHS..." not in text.split("Other options:", 1)[1]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_examples_and_exit_codes(command):
    text = run(command, "--help").stdout
    assert "Examples:\n" in text and "Exit codes:\n" in text
    examples = text.split("Examples:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert examples and all(line.startswith(f"  hipport {command}") for line in examples)
    codes = text.split("Exit codes:\n", 1)[1]
    assert "  0  " in codes and "  2  " in codes


def test_shell_completion_script():
    env = dict(os.environ, PYTHONPATH=str(REPO), _HIPPORT_COMPLETE="bash_source")
    script = subprocess.run([sys.executable, "-c", "from hipport.cli import main; main()"],
                            env=env, capture_output=True, text=True, timeout=60)
    assert script.returncode == 0 and "_HIPPORT_COMPLETE=bash_complete" in script.stdout
    env.update(_HIPPORT_COMPLETE="bash_complete", COMP_WORDS="hipport conv", COMP_CWORD="1")
    words = subprocess.run([sys.executable, "-c", "from hipport.cli import main; main()"],
                           env=env, capture_output=True, text=True, timeout=60)
    assert "plain,convert" in words.stdout.split()
