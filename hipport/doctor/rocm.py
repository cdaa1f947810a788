"""Where ROCm is and which release: ``--root``, hipport's toolchain (the
ROCm its hipcc wrappers run, in a chroot), ROCM_PATH, HIP_PATH, /opt/rocm,
/opt/rocm-X.Y.Z, the directory of ``hipcc``, and distribution layouts
(Debian installs ROCm under /usr, libraries in the multiarch directory)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hipport.doctor.dpkg import installed_packages
from hipport.doctor.hipcc import toolchain_roots
from hipport.doctor.model import (
    Check,
    Status,
    Version,
    cannot_read,
    format_version,
    parse_version,
)
from hipport.doctor.system import System, exists
from hipport.table.versions import DEFAULT_TARGET, NEWEST_VERIFIED, OLDEST_VERIFIED, release_text

_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\d+)", re.M)
_KEY_VALUE = re.compile(r"^(\w+)=(\S*)", re.M)
TOOLCHAIN = "hipport's toolchain"


@dataclass(frozen=True)
class RocmRoot:
    path: Path
    how: str  # how it was found: "--root", "ROCM_PATH", "/opt/rocm", ...
    version: Version | None  # the ROCm release
    version_source: str  # which file said so
    packages: dict[str, str]  # Debian packages installed for this prefix (may be empty)

    @property
    def include(self) -> Path:
        return self.path / "include"

    @property
    def lib_dirs(self) -> tuple[Path, ...]:
        # Debian's multiarch directory first: that is where its files are.
        multiarch = sorted(self.path.glob("lib/*-linux-gnu"))
        return tuple(d for d in (*multiarch, self.path / "lib", self.path / "lib64") if d.is_dir())

    @property
    def cmake_dirs(self) -> tuple[Path, ...]:
        dirs = [d / "cmake" for d in self.lib_dirs] + [self.path / "share" / "cmake"]
        return tuple(d for d in dirs if d.is_dir())

    @property
    def distribution(self) -> bool:
        return self.path.name == "usr"


def looks_like_rocm(path: Path) -> bool:
    return any((path / marker).exists() for marker in (
        ".info/version", "include/hip/hip_version.h", "include/hip/hip_runtime.h"))


def candidates(system: System, explicit: Path | None) -> list[tuple[Path, str]]:
    """Every place ROCm may be, in the order hipcc and CMake look (explicit
    settings first); duplicates by real path removed.  With ``--root``, only it."""
    if explicit is not None:  # asked for: no other installation stands in for it
        return [(explicit, "--root")]
    # hipport's toolchain first, as for hipcc (doctor.hipcc): its chroots' /usr,
    # the newest first.
    found: list[tuple[Path, str]] = [(root / "usr", TOOLCHAIN)
                                     for root in toolchain_roots(system).values()]
    for var in ("ROCM_PATH", "HIP_PATH"):
        value = system.env.get(var, "").strip()
        if value:
            path = Path(value)
            # ROCm < 6 had HIP under <rocm>/hip; HIP_PATH may point there.
            if path.name == "hip" and looks_like_rocm(path.parent):
                path = path.parent
            found.append((path, var))
    opt = system.path("/opt")
    found.append((opt / "rocm", "/opt/rocm"))
    versioned = [(parse_version(p.name[5:]) or (), p) for p in opt.glob("rocm-*")]
    found += [(p, f"/opt/{p.name}") for _, p in sorted(versioned, reverse=True)]
    usr = system.path("/usr")
    hipcc = system.find("hipcc")
    if hipcc and Path(hipcc).resolve().parent.parent != usr.resolve():
        found.append((Path(hipcc).resolve().parent.parent, "hipcc on PATH"))
    found.append((usr, "distribution (/usr)"))
    out: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for path, how in found:
        key = path.resolve() if exists(path) else path
        if key not in seen:
            seen.add(key)
            out.append((path, how))
    return out


def _unreadable(path: Path, how: str, error: OSError) -> Check:
    """A place ROCm may be that cannot be looked into: said, then passed over."""
    if how in ("ROCM_PATH", "HIP_PATH"):
        return Check("rocm", how.lower().replace("_", "-"), how, Status.WARN,
                     f"{how}={path}: cannot be read ({cannot_read(error)})",
                     f"make it readable for this user, or point {how} elsewhere")
    return Check("rocm", "rocm-unreadable", "ROCm installation", Status.WARN,
                 f"{path} ({how}): cannot be read ({cannot_read(error)})",
                 "make it readable for this user (mode, group, ACL)")


def rocm_version(path: Path) -> tuple[Version | None, str]:
    info = path / ".info" / "version"
    if info.is_file():
        version = parse_version(_read(info).strip())
        if version:
            return version, ".info/version"
    for rel in ("include/hip/hip_version.h", "share/hip/version"):
        values = _version_numbers(path / rel)
        if "HIP_VERSION_MAJOR" in values and "HIP_VERSION_MINOR" in values:
            # HIP's major.minor is the ROCm release's; its patch is a build number.
            return (values["HIP_VERSION_MAJOR"], values["HIP_VERSION_MINOR"]), rel
    return None, ""


def fitting_target(version: Version) -> tuple[int, int] | None:
    """The ``--rocm-version`` that fits a machine with ROCm ``version``: its
    release (major.minor); None when hipport cannot target one that old."""
    release = (version[0], version[1] if len(version) > 1 else 0)
    return release if release >= OLDEST_VERIFIED else None


def target_check(version: Version, source: str) -> Check:
    """The ROCm version found, and the conversion target that fits it: a
    tree converted for a newer ROCm may use names this one lacks, one for an
    older ROCm names that this one removed (hipBLAS 3's ``_v2``)."""
    shown = f"{format_version(version)} (from {source})"
    data: tuple[tuple[str, str], ...] = (("version", format_version(version)),)
    target = fitting_target(version)
    if target is None:
        return Check("rocm", "rocm-version", "ROCm version", Status.WARN,
                     f"{shown}: older than ROCm {release_text(OLDEST_VERIFIED)}, the oldest "
                     "hipport converts for", f"install ROCm {release_text(OLDEST_VERIFIED)} "
                     "or newer", data=data)
    text = release_text(target)
    data += (("target", text),)
    if target == DEFAULT_TARGET:
        return Check("rocm", "rocm-version", "ROCm version", Status.OK,
                     f"{shown}; hipport's default target (--rocm-version {text}) fits it",
                     data=data)
    if target > NEWEST_VERIFIED:
        return Check("rocm", "rocm-version", "ROCm version", Status.OK,
                     f"{shown}; convert with --rocm-version {text} (newer than "
                     f"{release_text(NEWEST_VERIFIED)}, the newest ROCm hipport checks its "
                     "names against)", data=data)
    return Check("rocm", "rocm-version", "ROCm version", Status.OK,
                 f"{shown}; convert with --rocm-version {text} (the default, "
                 f"{release_text(DEFAULT_TARGET)}, may use names this ROCm lacks)"
                 if target < DEFAULT_TARGET else f"{shown}; convert with --rocm-version {text}",
                 data=data)


def _version_numbers(path: Path) -> dict[str, int]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    pairs = [(k.decode(), v.decode()) for k, v in _DEFINE.findall(data)]
    pairs += _KEY_VALUE.findall(data.decode("utf-8", "replace"))
    return {k: int(v) for k, v in pairs if v.isdigit()}


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _packages(system: System, root: Path) -> dict[str, str]:
    # /usr's packages are in /var/lib/dpkg; a prepared prefix keeps its own.
    if root.name != "usr":
        return {}
    prefix_status = root.parent / "var" / "lib" / "dpkg" / "status"
    if root.resolve() == system.path("/usr").resolve():
        prefix_status = system.path("/var/lib/dpkg/status")
    return installed_packages(prefix_status)


def find_rocm(system: System, explicit: Path | None = None) -> tuple[RocmRoot | None, list[Check]]:
    """The ROCm root to use, and the checks that describe the choice."""
    checks: list[Check] = []
    chosen: RocmRoot | None = None
    others: list[str] = []
    unread: OSError | None = None
    for path, how in candidates(system, explicit):
        try:
            rocm = looks_like_rocm(path)
            version, source = rocm_version(path) if rocm else (None, "")
        except OSError as error:  # a folder this user may not look into
            unread = unread or error
            checks.append(_unreadable(path, how, error))
            continue
        if not rocm:
            if how in ("ROCM_PATH", "HIP_PATH") and chosen is None:
                # hipcc and CMake would use it: say so, then show what else is there.
                checks.append(Check(
                    "rocm", how.lower().replace("_", "-"), how, Status.MISSING,
                    f"{how}={path}: no ROCm there (no include/hip/hip_version.h, .info/version)",
                    f"point {how} at the ROCm installation (the directory holding include/hip)"))
            continue
        if chosen is None:
            chosen = RocmRoot(path, how, version, source, _packages(system, path))
        else:
            others.append(f"{path} ({format_version(version)}, {how})")
    if chosen is None:
        detail = (f"--root {explicit}: cannot be read ({cannot_read(unread)})"
                  if unread is not None else f"--root {explicit}: no ROCm there (no "
                  "include/hip/hip_version.h, .info/version)") if explicit is not None else (
            "not found (looked at hipport's toolchain, ROCM_PATH, HIP_PATH, /opt/rocm, "
            "/opt/rocm-*, hipcc's directory, /usr)")
        checks.append(Check(
            "rocm", "rocm-root", "ROCm installation", Status.MISSING, detail,
            "install ROCm (Debian 13: apt install hipcc libamdhip64-dev) or set ROCM_PATH"
            if explicit is None else "give --root the directory holding include/hip",
            required=True))
        return None, checks
    detail = f"{chosen.path} (found via {chosen.how})"
    checks.append(Check("rocm", "rocm-root", "ROCm installation", Status.OK, detail,
                        data=(("path", str(chosen.path)), ("how", chosen.how))))
    if chosen.version is None:
        checks.append(Check("rocm", "rocm-version", "ROCm version", Status.WARN,
                            "unknown: no .info/version, include/hip/hip_version.h or "
                            "share/hip/version", "reinstall the HIP runtime headers"))
    else:
        checks.append(target_check(chosen.version, chosen.version_source))
    if others and chosen.how == TOOLCHAIN:  # its chroot sees none of them
        checks.append(Check("rocm", "rocm-others", "Other ROCm installations", Status.INFO,
                            "; ".join(others) + ": not seen by the toolchain's chroot"))
    elif others:
        checks.append(Check(
            "rocm", "rocm-others", "Other ROCm installations", Status.WARN,
            "; ".join(others),
            f"builds may mix headers and libraries: set ROCM_PATH={chosen.path} "
            "(and CMAKE_PREFIX_PATH) explicitly"))
    return chosen, checks
