"""The suite's default of one worker per core (tests/parallel.py): the
README's command spreads the tests, and every way to ask for one process
still gets one."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from tests.parallel import default_to_workers
from tests.toolchain import REPO_ROOT


def _config(*args: str, xdist: bool = True, worker: bool = False, **options):
    option = SimpleNamespace(numprocesses=None, dist="no", usepdb=False, collectonly=False)
    for name, value in options.items():
        setattr(option, name, value)
    config = SimpleNamespace(option=option, args=list(args or ["tests"]),
                             pluginmanager=SimpleNamespace(hasplugin=lambda name: xdist))
    if worker:
        config.workerinput = {"workerid": "gw0"}
    return config


@pytest.mark.parametrize("args", [(), ("tests",), ("tests/catalogue", "tests/cli_test.py")])
def test_a_run_of_folders_gets_a_worker_per_core(args):
    config = _config(*args)
    default_to_workers(config)
    assert (config.option.numprocesses, config.option.dist) == ("logical", "worksteal")


def test_a_distribution_the_run_names_is_kept():
    config = _config(dist="loadfile")
    default_to_workers(config)
    assert (config.option.numprocesses, config.option.dist) == ("logical", "loadfile")


@pytest.mark.parametrize("config", [
    _config(numprocesses=0),                         # -n 0
    _config(numprocesses=3),                         # -n 3 as given
    _config(xdist=False),                            # -p no:xdist, or a venv without it
    _config(worker=True),                            # a worker starts no workers
    _config(usepdb=True),                            # --pdb
    _config(collectonly=True),                       # --collect-only
    _config("tests/cli_test.py"),                    # one file
    _config("tests/cli_test.py::test_help", "tests/x_test.py"),  # named tests
], ids=["n0", "n3", "no-xdist", "worker", "pdb", "collect-only", "file", "tests"])
def test_a_run_that_says_how_is_left_as_it_is(config):
    before = vars(config.option).copy()
    default_to_workers(config)
    assert vars(config.option) == before


def test_the_readme_command_installs_pytest_xdist():
    """scripts/bootstrap.sh installs the ``test`` extra; without pytest-xdist
    the full suite would run on one core."""
    extra = re.search(r"^test = \[(.*?)^\]", (REPO_ROOT / "pyproject.toml").read_text(),
                      re.M | re.S)
    assert extra and re.search(r'^\s*"pytest-xdist[<>=~";]', extra.group(1), re.M)
