from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.oracle_gaps import HIP_52_LEFT_OUT, KNOWN_GAPS
from tests.parallel import default_to_workers
from tests.toolchain import (
    ORACLE_NAMES,
    HipOracle,
    mounts_below,
    require_hip_oracle,
    toolchain_cache,
)

REPO = Path(__file__).resolve().parent.parent


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads -n
def pytest_cmdline_main(config: pytest.Config) -> None:
    default_to_workers(config)


@pytest.fixture(autouse=True, scope="session")
def _private_folders(tmp_path_factory):
    """Tests never read or fill the user's hipport cache, and the compilers'
    temporary files go under pytest's own folder, which it prunes: HIP 5.2's
    Clang leaves two empty directories in $TMPDIR at every link
    (`/tmp/k-3f9a1c`), thousands a run."""
    import os

    folders = {"HIPPORT_CACHE_DIR": "hipport-cache", "TMPDIR": "tmpdir"}
    previous = {name: os.environ.get(name) for name in folders}
    for name, folder in folders.items():
        os.environ[name] = str(tmp_path_factory.mktemp(folder))
    yield
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def convert():
    def run(source: str | bytes, **settings) -> bytes:
        return convert_source(source, Settings(**settings)).output
    return run


@pytest.fixture(params=ORACLE_NAMES)
def hip_oracle(request) -> HipOracle:
    """Each HIP compiler in turn (test ids ``[hip-5.2]``, ``[rocm-6.4]``); a
    missing one skips the test, or fails it when CI=true."""
    return require_hip_oracle(request.param)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that needs a HIP compiler is slow (`pytest -m "not slow"`
    leaves them out); the others say so with ``pytest.mark.slow``.  A known
    gap of an oracle (tests/oracle_gaps.py) is a strict xfail: it must fail
    there, and passing there fails the run until it is taken off the list."""
    for item in items:
        if "hip_oracle" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
        reason = KNOWN_GAPS.get(item.nodeid)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
    # HIP 5.2 builds no whole projects (docs/toolchains.md, "Suite time").
    left_out = [item for item in items if _oracle_of(item) == "hip-5.2"
                and {item.nodeid.split("::", 1)[0], item.nodeid.split("[", 1)[0]}
                & HIP_52_LEFT_OUT]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in left_out]


def _oracle_of(item: pytest.Item) -> str | None:
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("hip_oracle") if callspec is not None else None


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run fails if anything is mounted under the toolchain cache when it
    ends: the ROCm chroot's wrappers and setup steps mount only in namespaces
    of their own, and a bind of /tmp left under the cache would be emptied by
    ``rm -rf /var/cache/hipport`` (issue 24)."""
    cache = toolchain_cache()
    leaked = mounts_below(cache)
    if not leaked:
        return
    lines = [f"mounted under {cache} at the end of the run (unmount them: umount -l PATH):",
             *(f"  {point}" for point in leaked)]
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    for line in lines:
        if reporter is not None:
            reporter.write_line(line, red=True, bold=True)
        else:
            print(line)
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
