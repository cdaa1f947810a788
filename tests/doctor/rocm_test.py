from pathlib import Path

import pytest

from hipport.doctor.model import Status
from hipport.doctor.rocm import candidates, find_rocm, target_check
from hipport.table.versions import DEFAULT_TARGET, NEWEST_VERIFIED, OLDEST_VERIFIED, release_text
from tests.ci import missing
from tests.doctor.roots import isolated, suite_root

# HIP's major.minor (include/hip/hip_version.h) and the Debian package version
# of libamdhip64-dev in each suite.
EXPECTED = {"bookworm": ((5, 2), "5.2.3-8"), "trixie": ((5, 7), "5.7.1-6+deb13u1"),
            "sid": ((6, 4), "6.4.3-5")}


@pytest.mark.parametrize("suite", EXPECTED)
def test_root_given_explicitly(tmp_path, suite):
    root, checks = find_rocm(isolated(tmp_path), suite_root(suite))
    version, package = EXPECTED[suite]
    assert root is not None and root.how == "--root"
    assert root.version == version
    assert root.version_source == "include/hip/hip_version.h"
    # <suite>/var/lib/dpkg/status lists the unpacked packages, as on a real system.
    assert root.packages["libamdhip64-dev"].startswith(package.split("-")[0])
    assert root.distribution
    assert [c.status for c in checks] == [Status.OK, Status.OK]


@pytest.mark.parametrize("var", ["ROCM_PATH", "HIP_PATH"])
def test_root_from_the_environment(tmp_path, var):
    root, _ = find_rocm(isolated(tmp_path, {var: str(suite_root("trixie"))}))
    assert root is not None and root.how == var and root.version == (5, 7)


def test_hip_path_of_the_old_layout_means_its_parent(tmp_path):
    rocm = tmp_path / "rocm"
    (rocm / "include" / "hip").mkdir(parents=True)
    (rocm / "hip").mkdir()
    (rocm / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 1\n")
    root, _ = find_rocm(isolated(tmp_path, {"HIP_PATH": str(rocm / "hip")}))
    assert root is not None and root.path == rocm and root.version == (5, 1)


def test_opt_rocm_then_newest_versioned_then_usr(tmp_path):
    opt = tmp_path / "opt"
    opt.mkdir()
    # Real layouts behind the usual names (ROCm's own installs are not in
    # Debian; the unpacked Debian trees stand in for them).
    (opt / "rocm-5.7.1").symlink_to(suite_root("trixie"))
    (opt / "rocm-6.4.3").symlink_to(suite_root("sid"))
    (tmp_path / "usr").symlink_to(suite_root("bookworm"))
    system = isolated(tmp_path)
    hows = [how for _, how in candidates(system, None)]
    assert hows == ["hipport's toolchain", "hipport's toolchain", "/opt/rocm", "/opt/rocm-6.4.3",
                    "/opt/rocm-5.7.1", "distribution (/usr)"]
    root, checks = find_rocm(system)
    assert root is not None and root.how == "/opt/rocm-6.4.3" and root.version == (6, 4)
    others = next(c for c in checks if c.id == "rocm-others")
    assert others.status is Status.WARN
    assert "rocm-5.7.1 (5.7" in others.detail and "(5.2, distribution (/usr))" in others.detail
    (opt / "rocm").symlink_to(opt / "rocm-5.7.1")
    root, _ = find_rocm(system)
    assert root is not None and root.how == "/opt/rocm" and root.version == (5, 7)


def test_info_version_wins(tmp_path):
    rocm = tmp_path / "opt" / "rocm"
    (rocm / ".info").mkdir(parents=True)
    (rocm / ".info" / "version").write_text("6.1.0-82\n")
    root, _ = find_rocm(isolated(tmp_path))
    assert root is not None and root.version == (6, 1, 0) and root.version_source == ".info/version"


def test_nothing_found_is_reported_not_raised(tmp_path):
    root, checks = find_rocm(isolated(tmp_path))
    assert root is None
    assert checks[-1].status is Status.MISSING and checks[-1].fails
    assert "ROCM_PATH" in checks[-1].detail


def test_wrong_rocm_path_is_named(tmp_path):
    root, checks = find_rocm(isolated(tmp_path, {"ROCM_PATH": str(tmp_path / "nowhere")}),
                             suite_root("bookworm"))
    assert root is not None  # --root comes first
    (tmp_path / "usr").symlink_to(suite_root("bookworm"))
    root, checks = find_rocm(isolated(tmp_path, {"ROCM_PATH": str(tmp_path / "nowhere")}))
    assert root is not None and root.how == "distribution (/usr)"
    assert checks[0].id == "rocm-path" and "nowhere" in checks[0].detail
    assert checks[0].status is Status.MISSING and not checks[0].fails


def test_a_root_that_is_not_rocm_has_no_stand_in(tmp_path):
    (tmp_path / "usr").symlink_to(suite_root("bookworm"))
    (tmp_path / "empty").mkdir()
    root, checks = find_rocm(isolated(tmp_path), tmp_path / "empty")
    assert root is None
    [check] = checks
    assert check.id == "rocm-root" and check.fails and "--root" in check.detail


def test_this_machine_debian_12():
    from tests.doctor.roots import debian_hip_5_2

    if not Path("/usr/include/hip/hip_version.h").is_file():
        missing("no ROCm from Debian on this machine")
    root, _ = find_rocm(debian_hip_5_2(ROCM_PATH="", HIP_PATH=""))
    assert root is not None and root.path == Path("/usr")
    assert root.how in ("distribution (/usr)", "/opt/rocm")
    assert "libamdhip64-dev" in root.packages


def test_folders_of_a_root_that_cannot_be_read_are_lines(tmp_path, monkeypatch):
    """Issue 24: a probe that met a folder this user may not look into ended
    doctor with ``internal error: PermissionError``.  (As root nothing is
    unreadable: the folder's probes are made to fail as they would.)"""
    from hipport.doctor import diagnose
    from tests.doctor.trees import BLAS_FFT_HIP, tree

    root = suite_root("sid")
    locked = root / "include" / "hipblas"
    real = Path.is_file

    def is_file(path: Path) -> bool:
        if path.is_relative_to(locked):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(Path, "is_file", is_file)
    src = tree(tmp_path, **{"run.cpp": BLAS_FFT_HIP})
    checks = {c.id: c for c in diagnose(isolated(tmp_path), root, [src], frameworks=False).checks}
    reason = f"cannot be read (Permission denied: {locked / 'hipblas.h'})"
    assert (checks["library-hipblas"].status, checks["library-hipblas"].detail) == (
        Status.WARN, reason)
    assert checks["needs-hipblas"].detail == reason and checks["needs-hipblas"].fails
    assert checks["library-hipfft"].status is Status.OK


def _hip_root(usr: Path, major: int, minor: int) -> Path:
    (usr / "include" / "hip").mkdir(parents=True)
    (usr / "include" / "hip" / "hip_version.h").write_text(
        f"#define HIP_VERSION_MAJOR {major}\n#define HIP_VERSION_MINOR {minor}\n")
    return usr


def test_the_toolchains_newest_rocm_first(tmp_path):
    """Issue 33: the toolchain's ROCm 7.2 chroot comes before its 6.4 one
    (doctor looked at the 6.4 chroot only)."""
    cache = tmp_path / "var" / "cache" / "hipport"
    old = _hip_root(cache / "rocm-sid" / "usr", 6, 4)
    new = _hip_root(cache / "rocm-7.2" / "root" / "usr", 7, 2)
    root, checks = find_rocm(isolated(tmp_path))
    assert root is not None and (root.path, root.version) == (new, (7, 2))
    version = next(c for c in checks if c.id == "rocm-version")
    assert "--rocm-version 7.2" in version.detail and ("target", "7.2") in version.data
    others = next(c for c in checks if c.id == "rocm-others")
    assert f"{old} (6.4, hipport's toolchain)" in others.detail
    (new / "include" / "hip" / "hip_version.h").unlink()
    root, _ = find_rocm(isolated(tmp_path))
    assert root is not None and (root.path, root.version) == (old, (6, 4))


_NEWER = (NEWEST_VERIFIED[0] + 1, 0)


@pytest.mark.parametrize("version, status, says", [
    pytest.param(DEFAULT_TARGET, Status.OK, f"hipport's default target (--rocm-version "
                 f"{release_text(DEFAULT_TARGET)}) fits it", id="default"),
    pytest.param((*_NEWER, 4), Status.OK, f"convert with --rocm-version {release_text(_NEWER)} "
                 f"(newer than {release_text(NEWEST_VERIFIED)}, the newest", id="newer"),
    pytest.param(OLDEST_VERIFIED, Status.OK, f"convert with --rocm-version "
                 f"{release_text(OLDEST_VERIFIED)} (the default, {release_text(DEFAULT_TARGET)}, "
                 "may use names this ROCm lacks)", id="oldest"),
    pytest.param((4, 5), Status.WARN, f"older than ROCm {release_text(OLDEST_VERIFIED)}, the "
                 "oldest hipport converts for", id="too-old"),
])
def test_the_version_says_which_target_fits(version, status, says):
    """Issue 33: doctor says which --rocm-version fits the ROCm it found."""
    check = target_check(version, "include/hip/hip_version.h")
    assert check.status is status and says in check.detail, check.detail
