"""hipcc, the Clang behind it, the platform hipcc will really target, and
whether CMake's HIP language can be used with this ROCm."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hipport.doctor.hipcc import Choice, choose_hipcc
from hipport.doctor.model import (
    Check,
    Status,
    Version,
    at_least,
    format_version,
    parse_version,
    unreadable,
)
from hipport.doctor.rocm import RocmRoot
from hipport.doctor.system import Output, System, is_file, run_parallel, runnable

CMAKE_HIP_LANGUAGE = (3, 21)  # first CMake with `project(... HIP)`
# CMake < 3.27 looks for hip-lang only in <ROCm root>/lib/cmake (CMake issue
# 24562, fixed by merge request 8525); Debian has it in the multiarch directory.
CMAKE_MULTIARCH_HIP_LANG = (3, 27)
GFX942_CLANG = (17,)  # MI300 (gfx942) needs LLVM 17


@dataclass(frozen=True)
class Compilers:
    hipcc: str | None
    platform: str | None  # what hipcc targets: "amd" / "nvidia"
    clang: str | None  # the clang++ hipcc runs for AMD
    clang_version: Version | None
    cmake_version: Version | None
    choice: Choice | None = None  # which hipcc, and why


def _choose(system: System, root: RocmRoot | None) -> Choice:
    """verify's choice; a root named with --root puts its own hipcc first."""
    named = ("--root", str(root.path / "bin" / "hipcc")) \
        if root is not None and root.how == "--root" else None
    return choose_hipcc(system, named)


def _cmake(system: System, choice: Choice) -> str | None:
    """The toolchain's own CMake goes with the toolchain's hipcc (the host's
    would build against the host's ROCm); else CMake on PATH."""
    if choice.runner and choice.path is not None:
        own = Path(choice.path).parent / "cmake"
        if runnable(own):
            return str(own)
    return system.find("cmake")


def probe_compilers(system: System, root: RocmRoot | None) -> tuple[Compilers, list[Check]]:
    choice = _choose(system, root)
    hipcc = choice.path
    cmake = _cmake(system, choice)
    commands = {}
    if hipcc:
        hipconfig = str(Path(hipcc).parent / "hipconfig")
        commands["platform"] = ([hipconfig, "--platform"], system.env)
        commands["version"] = ([hipconfig, "--version"], system.env)
        commands["clangpath"] = ([hipconfig, "--hipclangpath"], system.env)
    if cmake:
        commands["cmake"] = ([cmake, "--version"], system.env)
    out = run_parallel(system, commands)
    checks: list[Check] = []
    platform = None
    clang = clang_version = None
    if hipcc is None:
        checks.append(Check("compiler", "hipcc", "hipcc", Status.MISSING,
                            f"not found: tried {choice.tried}",
                            "apt install hipcc (Debian 13+), or ROCm's hip-dev; then put "
                            "<ROCm root>/bin on PATH", required=True))
    else:
        checks.append(_hipcc_check(choice, out["version"]))
        platform, check = _platform_check(system, hipcc, out["platform"], out["clangpath"])
        checks.append(check)
        clang, clang_version, check = _clang_check(system, choice, out["clangpath"])
        checks.append(check)
    checks.append(_amdclang_check(system, root))
    cmake_version = parse_version(out["cmake"].stdout.split("version", 1)[-1]) \
        if "cmake" in out and out["cmake"].ok else None
    checks += _cmake_checks(cmake, out.get("cmake"), cmake_version, root, clang)
    return Compilers(hipcc, platform, clang, clang_version, cmake_version, choice), checks


def _hipcc_check(choice: Choice, version: Output) -> Check:
    """Which hipcc, its HIP and Clang (``hipcc --version``) and why it was chosen."""
    hipcc = choice.path or ""
    if choice.problem:
        return Check("compiler", "hipcc", "hipcc", Status.WARN,
                     f"{hipcc}, but it does not run: {choice.problem}; chosen: {choice.reason}",
                     "reinstall hipcc, or name a working one with HIPCC=PATH",
                     data=(("path", hipcc), ("chosen_by", _place(choice)),
                           ("reason", choice.reason)))
    parts = [f"HIP {choice.version_text}"]
    if choice.clang_version:
        parts.append(f"clang {choice.clang_version}")
    detail = f"{hipcc} ({', '.join(parts)}); chosen: {choice.reason}"
    data = (("path", hipcc), ("hip_version", choice.version_text),
            ("chosen_by", _place(choice)), ("reason", choice.reason))
    if not version.ok:
        return Check("compiler", "hipcc", "hipcc", Status.WARN,
                     f"{detail}; but hipconfig --version failed: {version.why()}",
                     "reinstall hipcc: its hipconfig does not run here", data=data)
    if choice.passed_over:
        return Check("compiler", "hipcc", "hipcc", Status.WARN, detail,
                     "a hipcc looked at first does not run: fix it, or set HIPCC to the one "
                     "you want", data=data)
    return Check("compiler", "hipcc", "hipcc", Status.OK, detail, data=data)


def _place(choice: Choice) -> str:
    return choice.place.name if choice.place is not None else ""


def _platform_check(system: System, hipcc: str, answer: Output,
                    clangpath: Output) -> tuple[str | None, Check]:
    platform = answer.stdout.strip() if answer.ok else None
    env_value = system.env.get("HIP_PLATFORM", "")
    clang_dir = clangpath.stdout.strip() if clangpath.ok else ""
    why = f"HIP_PLATFORM={env_value}" if env_value else _why_platform(system, hipcc, clang_dir)
    if platform is None:
        return None, Check("compiler", "hip-platform", "HIP platform", Status.WARN,
                           f"unknown: hipconfig --platform failed: {answer.why()}",
                           "set HIP_PLATFORM=amd explicitly for AMD GPUs")
    data = (("platform", platform), ("reason", why))
    if platform in ("amd", "hcc"):
        return "amd", Check("compiler", "hip-platform", "HIP platform", Status.OK,
                            f"amd ({why})", data=data)
    if env_value:
        return platform, Check("compiler", "hip-platform", "HIP platform", Status.WARN,
                               f"{platform} ({why}): hipcc builds for NVIDIA GPUs with nvcc",
                               "unset HIP_PLATFORM or set HIP_PLATFORM=amd to build for AMD GPUs",
                               data=data)
    return platform, Check(
        "compiler", "hip-platform", "HIP platform", Status.WARN,
        f"{platform}, chosen by hipcc because {why}: AMD options such as --offload-arch fail",
        "export HIP_PLATFORM=amd (hipcc picks NVIDIA whenever it finds nvcc but no clang++)",
        data=data)


def _why_platform(system: System, hipcc: str, clang_dir: str) -> str:
    """Why HIP 5's hipvars.pm picked what it picked, in its own order: a
    runnable clang++ (HIP_CLANG_PATH, then PATH) means amd, else nvcc
    ($CUDA_PATH/bin, then PATH) means nvidia, else amd."""
    if not is_file(Path(hipcc).parent / "hipvars.pm") or not clang_dir:
        return "HIP_PLATFORM is unset (hipconfig --platform)"
    clang = Path(clang_dir, "clang++")
    if runnable(clang) or system.find("clang++"):
        where = clang if runnable(clang) else "on PATH"
        return f"HIP_PLATFORM is unset and clang++ is there ({where})"
    cuda = system.env.get("CUDA_PATH", "/usr/local/cuda")
    nvcc = Path(cuda, "bin", "nvcc")
    found = str(nvcc) if runnable(nvcc) else system.find("nvcc")
    if found:
        return (f"HIP_PLATFORM is unset, there is no clang++ in {clang_dir} or on PATH, "
                f"but there is nvcc ({found})")
    return "HIP_PLATFORM is unset and neither clang++ nor nvcc was found (default)"




_VERSIONED_CLANG = re.compile(r"clang\+\+-(\d+)")


def _clang_check(system: System, choice: Choice,
                 clangpath: Output) -> tuple[str | None, Version | None, Check]:
    if not clangpath.ok or not clangpath.stdout.strip():
        return None, None, Check("compiler", "hip-clang", "Clang behind hipcc", Status.WARN,
                                 f"hipconfig --hipclangpath failed: {clangpath.why()}",
                                 "set HIP_CLANG_PATH to the directory of ROCm's clang++")
    said = clangpath.stdout.strip().splitlines()[0]
    directory = choice.host_path(said)
    hipcc_dir = Path(choice.path or "").parent
    clang = _clang_in(directory, hipcc_dir)
    if clang is None:
        name = _clang_name(hipcc_dir)
        advice = f"apt install clang-{name.rsplit('-', 1)[1]}" if name != "clang++" \
            else "install ROCm's llvm (rocm-llvm), or set HIP_CLANG_PATH"
        return None, None, Check(
            "compiler", "hip-clang", "Clang behind hipcc", Status.MISSING,
            f"no {name} in {directory} (hipconfig --hipclangpath)", advice, required=True)
    # The toolchain's clang runs in its chroot, at the path hipconfig said.
    argv = [*choice.runner, str(Path(said) / clang.name)] if choice.runner else [str(clang)]
    answer = system.execute([*argv, "--version"])
    first = answer.stdout.strip().splitlines()[0] if answer.ok and answer.stdout.strip() else ""
    version = parse_version(first.split("version", 1)[1]) if "version" in first else None
    if version is None:
        return str(clang), None, Check("compiler", "hip-clang", "Clang behind hipcc", Status.WARN,
                                       f"{clang}: --version failed: {answer.why()}",
                                       "reinstall the clang hipcc uses")
    note = "" if at_least(version, GFX942_CLANG) else \
        f"; no gfx942 (MI300) before clang {format_version(GFX942_CLANG)}"
    return str(clang), version, Check(
        "compiler", "hip-clang", "Clang behind hipcc", Status.OK, f"{first} ({clang}){note}",
        data=(("path", str(clang)), ("version", format_version(version))))


def _clang_name(hipcc_dir: Path) -> str:
    # Debian patches hipcc to run a versioned clang (clang++-15): read which.
    script = hipcc_dir / "hipcc.pl"
    try:
        wanted = _VERSIONED_CLANG.findall(script.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        wanted = []
    return f"clang++-{wanted[0]}" if wanted else "clang++"


def _clang_in(directory: Path, hipcc_dir: Path) -> Path | None:
    clang = directory / _clang_name(hipcc_dir)
    return clang if runnable(clang) else None


def _amdclang_check(system: System, root: RocmRoot | None) -> Check:
    places = [root.path / "llvm" / "bin" / "amdclang++", root.path / "bin" / "amdclang++"] \
        if root is not None else []
    found = next((str(p) for p in places if runnable(p)), None) or system.find("amdclang++")
    if found:
        return Check("compiler", "amdclang", "amdclang++", Status.OK, found)
    return Check("compiler", "amdclang", "amdclang++", Status.INFO,
                 "not installed (AMD's ROCm packages ship it; distributions use their clang++)")


def _cmake_checks(cmake: str | None, answer: Output | None, version: Version | None,
                  root: RocmRoot | None, clang: str | None) -> list[Check]:
    if cmake is None:
        return [Check("compiler", "cmake", "CMake", Status.INFO, "not installed",
                      "apt install cmake (3.21+ for the HIP language)")]
    if version is None:
        why = answer.why() if answer is not None else "not run"
        return [Check("compiler", "cmake", "CMake", Status.WARN,
                      f"{cmake}: --version failed: {why}", "reinstall cmake")]
    if not at_least(version, CMAKE_HIP_LANGUAGE):
        return [Check("compiler", "cmake", "CMake", Status.TOO_OLD,
                      f"{format_version(version)}: the HIP language needs 3.21",
                      "install CMake 3.21 or newer (pip install cmake)")]
    checks = [Check("compiler", "cmake", "CMake", Status.OK,
                    f"{format_version(version)} ({cmake})",
                    data=(("version", format_version(version)),))]
    if root is not None:
        try:
            checks.append(_hip_lang_check(version, root, clang))
        except OSError as error:
            checks.append(unreadable("compiler", "cmake-hip-lang",
                                     "CMake HIP language (hip-lang)", error))
    return checks


def _hip_lang_check(version: Version, root: RocmRoot, clang: str | None) -> Check:
    title = "CMake HIP language (hip-lang)"
    expected = root.path / "lib" / "cmake" / "hip-lang" / "hip-lang-config.cmake"
    found = next((d / "hip-lang" / "hip-lang-config.cmake" for d in root.cmake_dirs
                  if (d / "hip-lang" / "hip-lang-config.cmake").is_file()), None)
    if found is None:
        return Check("compiler", "cmake-hip-lang", title, Status.MISSING,
                     f"no hip-lang-config.cmake under {root.path}",
                     "install the HIP runtime's CMake files (libamdhip64-dev / hip-devel)")
    if found == expected or at_least(version, CMAKE_MULTIARCH_HIP_LANG):
        detail = f"CMake {format_version(version)} finds {found}"
        if root.distribution and clang and not Path(clang).name == "clang++":
            llvm = Path(clang).resolve().parent / "clang++"
            return Check("compiler", "cmake-hip-lang", title, Status.WARN,
                         f"{detail}, but there is no plain clang++ for it to run",
                         f"cmake -DCMAKE_HIP_COMPILER={llvm}")
        return Check("compiler", "cmake-hip-lang", title, Status.OK, detail)
    # The Debian multiarch gap: docs/build-files.md, "Debian 12 gaps".
    return Check(
        "compiler", "cmake-hip-lang", title, Status.WARN,
        f"CMake {format_version(version)} looks only in {expected.parent}, but it is in "
        f"{found.parent} (multiarch; CMake 3.27+ finds it)",
        f"mkdir -p R/lib/cmake && ln -s {found.parent} R/lib/cmake/hip-lang, then "
        "cmake -DCMAKE_HIP_COMPILER_ROCM_ROOT=R (or CMake 3.27+)")
