"""The suite runs on every core by default: with pytest-xdist installed
(scripts/bootstrap.sh installs it), a run that does not say otherwise gets
``-n logical --dist worksteal``, a worker per logical CPU (``auto`` counts
physical cores when psutil is installed: one on a 2-vCPU machine with SMT).
Almost every slow test waits for one single-threaded compiler (hipcc, nvcc,
cmake, make), so a serial run leaves all cores but one idle
(docs/toolchains.md, "Suite time"). A worker more than the CPUs was tried:
the 2-core run kept using 1.77 cores, and the third worker's own module
fixtures and start-up cost about 260 CPU seconds.

Set here rather than in ``addopts`` so that a checkout whose venv predates
pytest-xdist, and ``-p no:xdist``, still run (serially) instead of failing
on an unknown ``-n``.  ``-n 0`` runs in one process; so do ``--pdb`` and a
run of named files or tests only (``pytest tests/x_test.py``,
``file::test``), where starting the workers costs more than they save in
most cases (``-n logical`` spreads one).  ``worksteal`` hands each worker a
contiguous half of the tests, so a file's module fixtures are mostly built
once, and lets the one that finishes first take over the other's rest."""
from __future__ import annotations

import pytest


def default_to_workers(config: pytest.Config) -> None:
    """Ask pytest-xdist for one worker per core unless the run says how."""
    option = config.option
    if (not config.pluginmanager.hasplugin("xdist")
            or hasattr(config, "workerinput")  # a worker: never workers of its own
            or option.numprocesses is not None
            or option.usepdb or option.collectonly
            or all(_names_a_file(str(arg)) for arg in config.args)):
        return
    option.numprocesses = "logical"
    if option.dist == "no":
        option.dist = "worksteal"


def _names_a_file(arg: str) -> bool:
    return arg.partition("::")[0].endswith(".py")
