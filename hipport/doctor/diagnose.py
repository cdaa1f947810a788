"""One doctor run: every probe, then the tree's needs against the result."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

from hipport.doctor.compiler import probe_compilers
from hipport.doctor.devices import TOPOLOGY, amd_gpus, probe_devices
from hipport.doctor.frameworks import probe_torch
from hipport.doctor.libraries import LIBRARIES, Installed, probe_library, runtime_package
from hipport.doctor.model import (
    SECTIONS,
    Check,
    Diagnosis,
    Status,
    checks_in,
    format_version,
    unreadable,
)
from hipport.doctor.render import TITLES
from hipport.doctor.rocm import TOOLCHAIN, RocmRoot, find_rocm
from hipport.doctor.system import System


def diagnose(system: System, root: Path | None = None, paths: Sequence[Path] = (),
             rules: Sequence[str] = (), frameworks: bool = True) -> Diagnosis:
    """Everything doctor checks.  The external commands run in threads while
    the tree (if any) is read in this one."""
    amd = bool(amd_gpus(system.path(TOPOLOGY)))
    with ThreadPoolExecutor(max_workers=3) as pool:
        rocm = find_rocm(system, root)
        compilers = pool.submit(probe_compilers, system, rocm[0])
        devices = pool.submit(probe_devices, system)
        torch = pool.submit(probe_torch, system, amd) if frameworks else None
        needs = None
        if paths:  # the conversion pipeline is imported only for a tree
            from hipport.doctor.tree import needs_of

            needs = needs_of(paths, rules)
        checks: list[Check] = list(rocm[1])
        checks += _section("compiler", lambda: compilers.result()[1])
        checks += library_checks(rocm[0], system.debian_release())
        checks += _section("devices", lambda: devices.result()[1])
        if torch is not None:
            checks += torch.result()[1]
    if needs is not None:
        from hipport.doctor.needs import tree_checks

        checks += tree_checks(needs, rocm[0], system.debian_release())
    root_found = rocm[0]
    return Diagnosis(tuple(checks_in(SECTIONS, checks)), tuple(str(p) for p in paths),
                     str(root_found.path) if root_found else None,
                     root_found.version if root_found else None)


def _section(name: str, probe: Callable[[], list[Check]]) -> list[Check]:
    """A section's checks; one that a file it could not read stopped is a
    line saying so, not a traceback (the probes say more where they can)."""
    try:
        return probe()
    except OSError as error:
        return [unreadable(name, f"{name}-unreadable", TITLES.get(name, name), error)]


def library_checks(root: RocmRoot | None, debian: int | None = None) -> list[Check]:
    if root is None:
        return []
    checks = []
    toolchain = root.how == TOOLCHAIN
    for lib in LIBRARIES:
        try:
            checks.append(library_check(probe_library(lib, root), debian, toolchain))
        except OSError as error:  # a folder of the root this user may not look into
            checks.append(unreadable("libraries", f"library-{lib.key}", lib.name, error))
    return checks


def library_check(found: Installed, debian: int | None = None,
                  toolchain: bool = False) -> Check:
    """What ``found`` has of a library.  ``toolchain``: it is hipport's ROCm
    toolchain, which has some libraries as headers only by design (their
    shared objects need GB of GPU kernels; docs/toolchains.md): a fact of
    that toolchain, not a problem of the machine (a tree that links one is
    told so by its own check)."""
    lib = found.library
    ident = f"library-{lib.key}"
    if not found.present:
        return Check("libraries", ident, lib.name, Status.INFO, "not installed",
                     lib.install_hint(debian))
    parts = [f"{lib.name} {format_version(found.version)}" if found.version else lib.name]
    if found.rocm is not None:
        parts[0] += f" (ROCm {format_version(found.rocm)}" + \
            (f", {found.package})" if found.package else ")")
    data = (("header", found.header or ""), ("shared", str(found.shared or "")),
            ("cmake", str(found.cmake or "")),
            ("version", format_version(found.version) if found.version else ""),
            ("rocm", format_version(found.rocm) if found.rocm else ""),
            ("package", found.package or ""))
    if lib.sonames and found.shared is None:
        if toolchain:
            return Check("libraries", ident, lib.name, Status.INFO,
                         f"{parts[0]}: headers only in hipport's ROCm toolchain: code that "
                         "includes them compiles, nothing links them (docs/toolchains.md)",
                         data=data)
        if found.dangling is not None:
            link, target = found.dangling
            return Check("libraries", ident, lib.name, Status.WARN,
                         f"{parts[0]}: headers, but {link.name} points to {target}, which is "
                         "missing", f"apt install {runtime_package(target)}", data=data)
        return Check("libraries", ident, lib.name, Status.WARN,
                     f"{parts[0]}: headers only, no lib{lib.sonames[0]}.so",
                     lib.install_hint(debian), data=data)
    if lib.cmake_config and found.cmake is None:
        return Check("libraries", ident, lib.name, Status.WARN,
                     f"{parts[0]}: no CMake package ({lib.cmake_config}-config.cmake): "
                     f"find_package({lib.cmake_config}) fails", lib.install_hint(debian),
                     data=data)
    pieces = [found.header or ""]
    if found.shared is not None:
        pieces.append(found.shared.name)
    if found.cmake is not None:
        pieces.append("CMake")
    return Check("libraries", ident, lib.name, Status.OK,
                 f"{parts[0]}: {', '.join(pieces)}", data=data)
