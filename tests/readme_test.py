"""The README's example output is what hipport prints (issue 19): every line
of its `$ hipport convert examples ...` blocks but `...` comes from running
the same conversion on examples/ (a dry run: nothing is written)."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.conftest import REPO

BLOCK = re.compile(r"```\n\$ (hipport convert examples[^\n]*)\n(.*?)```", re.DOTALL)


def blocks() -> list[tuple[str, list[str]]]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [(command, [line for line in body.splitlines() if line != "..."])
            for command, body in BLOCK.findall(text)]


def test_the_readme_shows_the_concise_output_and_statistics():
    commands = [command for command, _ in blocks()]
    assert any("--statistics" in c for c in commands)
    assert any("--statistics" not in c for c in commands)


@pytest.mark.parametrize("command, lines", blocks(), ids=lambda v: v if isinstance(v, str) else "")
def test_readme_output_is_real(command, lines, monkeypatch):
    monkeypatch.chdir(REPO)
    args = command.split()[1:]
    if "-o" in args:  # the same findings without writing examples-hip/
        at = args.index("-o")
        del args[at:at + 2]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    printed = result.stderr.splitlines()
    missing = [line for line in lines if line not in printed]
    assert missing == []
