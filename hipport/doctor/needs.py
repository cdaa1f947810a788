"""The tree's needs against what is installed: one required check per
library, marked available, missing or too old, with the package to install."""
from __future__ import annotations

from pathlib import Path

from hipport.doctor.libraries import BY_KEY, Installed, probe_library, runtime_package
from hipport.doctor.model import Check, Status, at_least, format_version, unreadable
from hipport.doctor.rocm import RocmRoot
from hipport.doctor.tree import Need, TreeNeeds, describe
from hipport.words import plural


def tree_checks(needs: TreeNeeds, root: RocmRoot | None,
                debian: int | None = None) -> list[Check]:
    version, because = needs.min_rocm
    uses = plural(needs.hip_uses, "HIP use", "HIP uses")
    summary = (f"{', '.join(needs.paths)}: {plural(needs.files, 'source file')}; "
               f"{needs.cuda_uses} CUDA and {uses} of ROCm APIs and headers")
    if version is not None:
        summary += f"; needs ROCm {format_version(version)}+ ({because})"
    checks = [Check("tree", "tree", "Tree", Status.INFO, summary,
                    data=(("min_rocm", format_version(version) if version else ""),))]
    for need in needs.libraries.values():
        if root is None:
            checks.append(need_check(need, None, None, debian))
        else:
            try:
                checks.append(need_check(need, probe_library(BY_KEY[need.library], root),
                                         root.include, debian))
            except OSError as error:  # what this user cannot read, a build cannot use
                lib = BY_KEY[need.library]
                checks.append(unreadable("tree", f"needs-{lib.key}", lib.name, error,
                                         Status.MISSING, required=True))
    return checks


def need_check(need: Need, installed: Installed | None, include_dir: Path | None,
               debian: int | None = None) -> Check:
    lib = BY_KEY[need.library]
    ident, title = f"needs-{lib.key}", lib.name
    data = (("library", lib.key), ("uses", str(need.uses)),
            ("min_rocm", format_version(need.min_rocm) if need.min_rocm else ""),
            ("package", lib.debian or lib.rocm_package))
    used = describe(need)

    def problem(status: Status, detail: str, advice: str) -> Check:
        return Check("tree", ident, title, status, f"{detail} ({used})", advice, True, data)

    if installed is None or not installed.present:
        return problem(Status.MISSING, "not installed", lib.install_hint(debian))
    absent = [h for h in need.headers
              if include_dir is not None and not (include_dir / h).is_file()]
    if absent:
        return problem(Status.MISSING, f"header {absent[0]} not found (this {lib.name} has "
                       f"{installed.header})", f"include <{installed.header}>, or install a "
                       f"{lib.name} that has {absent[0]}")
    if lib.sonames and installed.shared is None:
        if installed.dangling is not None:
            link, target = installed.dangling
            package = runtime_package(target)
            return problem(Status.MISSING, f"{link.name} points to {target}, which is missing",
                           f"apt install {package} (the runtime package of {lib.debian})")
        return problem(Status.MISSING, f"no lib{lib.sonames[0]}.so",
                       lib.install_hint(debian))
    have = installed.rocm
    if need.min_rocm is not None and not at_least(have, need.min_rocm):
        shown = format_version(have) if have else "unknown"
        return problem(Status.TOO_OLD, f"{lib.name} of ROCm {shown}; {need.because} needs "
                       f"{format_version(need.min_rocm)}",
                       f"upgrade {lib.debian or lib.rocm_package} to ROCm "
                       f"{format_version(need.min_rocm)} or newer")
    found = f"{lib.name}" + (f" of ROCm {format_version(have)}" if have else "")
    return Check("tree", ident, title, Status.OK, f"{found} ({used})", "", True, data)
