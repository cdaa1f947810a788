"""Package versions from a dpkg status file (``<prefix>/var/lib/dpkg/status``):
a plain read, no dpkg-query process.  Debian versions ROCm packages by the
ROCm release they come from (``libhipblas-dev 5.5.1-4`` is hipBLAS of ROCm
5.5.1), so this is also where a library's ROCm release is read."""
from __future__ import annotations

from pathlib import Path

from hipport.doctor.model import Version, parse_version


def installed_packages(status_file: Path) -> dict[str, str]:
    """package -> version, for packages dpkg marks ``installed``; {} when the
    file is missing or unreadable."""
    try:
        text = status_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    found: dict[str, str] = {}
    for paragraph in text.split("\n\n"):
        package = version = status = ""
        for line in paragraph.splitlines():
            if line.startswith("Package:"):
                package = line[8:].strip()
            elif line.startswith("Version:"):
                version = line[8:].strip()
            elif line.startswith("Status:"):
                status = line[7:].strip()
        if package and version and status.endswith(" installed"):
            found[package.split(":")[0]] = version
    return found


def upstream_version(debian_version: str) -> Version | None:
    """``1:6.4.3+dfsg-1+b1`` -> (6, 4, 3)."""
    without_epoch = debian_version.split(":", 1)[-1]
    return parse_version(without_epoch.rsplit("-", 1)[0] if "-" in without_epoch
                         else without_epoch)
