"""Headless Chromium for the HTML report test: load a page from disk, return
its DOM after scripts ran, the console messages, and a screenshot."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.ci import missing

NAMES = ("chromium", "chromium-browser", "google-chrome")
# Offline and quiet: no sandbox (tests may run as root), no GPU, nothing fetched.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0")
CONSOLE = re.compile(r":CONSOLE[(:][^\]]*\] (.*)")


@dataclass(frozen=True)
class Page:
    dom: str
    console: list[str]  # every console message (errors included), as Chromium logged them


def require_chromium() -> str:
    """Chromium's path; skip without it (fail when CI=true)."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    missing("chromium not found; run scripts/setup-toolchain.sh (Debian package chromium)")
    raise AssertionError("unreachable")


def _run(browser: str, *args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="hipport-chromium-") as profile:
        return subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "HOME": profile})


def load(browser: str, page: Path) -> Page:
    proc = _run(browser, "--dump-dom", page.resolve().as_uri())
    assert proc.returncode == 0, proc.stderr[-3000:]
    return Page(proc.stdout, CONSOLE.findall(proc.stderr))


def screenshot(browser: str, page: Path, out: Path, size: str = "1280,2600") -> None:
    proc = _run(browser, f"--screenshot={out}", f"--window-size={size}",
                "--hide-scrollbars", page.resolve().as_uri())
    assert proc.returncode == 0 and out.is_file(), proc.stderr[-3000:]
