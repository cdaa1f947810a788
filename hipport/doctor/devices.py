"""GPUs: AMD ones from /dev/kfd and the KFD topology in sysfs (written by the
amdkfd kernel driver, drivers/gpu/drm/amd/amdkfd/kfd_topology.c: one
``name value`` pair per line in ``nodes/<n>/properties`` and
``nodes/<n>/mem_banks/<m>/properties``), the ROCm tools when installed,
NVIDIA ones from nvidia-smi.  Nothing here fails a run: no GPU is needed
to build."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from hipport.doctor.model import Check, Status
from hipport.doctor.system import Output, System, exists, run_parallel
from hipport.words import plural

TOPOLOGY = "/sys/class/kfd/kfd/topology/nodes"
AMD_VENDOR = 0x1002


@dataclass(frozen=True)
class AmdGpu:
    node: int
    gfx: str  # e.g. "gfx90a"
    compute_units: int
    memory: int  # bytes of device memory (FB heaps), 0 when unknown
    device_id: int


def gfx_name(target_version: int) -> str:
    """``gfx_target_version`` (major * 10000 + minor * 100 + stepping, as the
    driver prints it) as an offload target: 90010 -> gfx90a, 110000 -> gfx1100."""
    major, minor, stepping = target_version // 10000, target_version // 100 % 100, \
        target_version % 100
    return f"gfx{major}{minor:x}{stepping:x}"


def read_properties(path: Path) -> dict[str, int]:
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError:
        return {}
    values: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            values[parts[0]] = int(parts[1])
    return values


def amd_gpus(topology: Path) -> list[AmdGpu]:
    gpus = []
    nodes = sorted((p for p in topology.glob("*") if p.name.isdigit()), key=lambda p: int(p.name))
    for node in nodes:
        props = read_properties(node / "properties")
        target = props.get("gfx_target_version", 0)
        if not target or not props.get("simd_count"):
            continue  # a CPU node
        if props.get("vendor_id", AMD_VENDOR) != AMD_VENDOR:
            continue
        cus = props["simd_count"] // max(props.get("simd_per_cu", 1), 1)
        # heap_type 1 and 2: the public and private parts of device memory.
        banks = [read_properties(p) for p in sorted(node.glob("mem_banks/*/properties"))]
        memory = sum(b.get("size_in_bytes", 0) for b in banks if b.get("heap_type") in (1, 2))
        gpus.append(AmdGpu(int(node.name), gfx_name(target), cus, memory,
                           props.get("device_id", 0)))
    return gpus


def _gib(size: int) -> str:
    return f"{size / 2**30:.0f} GiB" if size else "memory unknown"


def probe_devices(system: System) -> tuple[list[AmdGpu], list[Check]]:
    checks: list[Check] = []
    kfd = system.path("/dev/kfd")
    gpus = amd_gpus(system.path(TOPOLOGY))
    tools = {name: system.find(name) for name in ("rocminfo", "amd-smi", "rocm-smi",
                                                  "nvidia-smi")}
    commands = {}
    here = exists(kfd)
    if here and tools["rocminfo"]:
        commands["rocminfo"] = ([tools["rocminfo"]], system.env)
    if tools["nvidia-smi"]:
        commands["nvidia-smi"] = ([tools["nvidia-smi"], "--query-gpu=name,compute_cap",
                                   "--format=csv,noheader"], system.env)
    out = run_parallel(system, commands)

    if not here:
        checks.append(Check("devices", "kfd", "AMD GPU driver (/dev/kfd)", Status.INFO,
                            "absent: no AMD GPU usable here (building still works)"))
    elif not os.access(kfd, os.R_OK | os.W_OK):
        checks.append(Check("devices", "kfd", "AMD GPU driver (/dev/kfd)", Status.WARN,
                            f"{kfd} exists but this user cannot open it",
                            "add the user to the render and video groups "
                            "(usermod -aG render,video $USER), then log in again"))
    else:
        checks.append(Check("devices", "kfd", "AMD GPU driver (/dev/kfd)", Status.OK, str(kfd)))
    for gpu in gpus:
        checks.append(Check(
            "devices", f"gpu-{gpu.node}", f"AMD GPU (node {gpu.node})", Status.OK,
            f"{gpu.gfx}, {plural(gpu.compute_units, 'compute unit')}, {_gib(gpu.memory)}, "
            f"device id 0x{gpu.device_id:04x}",
            data=(("gfx", gpu.gfx), ("compute_units", str(gpu.compute_units)),
                  ("memory_bytes", str(gpu.memory)))))
    if "rocminfo" in out:
        answer = out["rocminfo"]
        names = sorted(set(re.findall(r"\bgfx[0-9a-f]+\b", answer.stdout)) - {"gfx000"})
        status = Status.OK if answer.ok else Status.WARN
        checks.append(Check("devices", "rocminfo", "rocminfo", status,
                            f"agents {', '.join(names) or 'none'}" if answer.ok else answer.why(),
                            "" if answer.ok else "check the amdgpu driver and the user's groups"))
    installed = [name for name in ("rocminfo", "amd-smi", "rocm-smi") if tools[name]]
    if "rocminfo" not in out:
        checks.append(Check("devices", "rocm-tools", "ROCm device tools", Status.INFO,
                            (f"{', '.join(installed)} installed" + (", not run (no /dev/kfd)"
                             if installed and not here else ""))
                            if installed else "none of rocminfo, amd-smi, rocm-smi installed"))
    checks.append(_nvidia_check(tools["nvidia-smi"], out.get("nvidia-smi")))
    checks.append(_offload_check(gpus))
    return gpus, checks


def _nvidia_check(tool: str | None, answer: Output | None) -> Check:
    if tool is None or answer is None:
        return Check("devices", "nvidia", "NVIDIA GPUs", Status.INFO, "nvidia-smi not installed")
    if not answer.ok:
        return Check("devices", "nvidia", "NVIDIA GPUs", Status.INFO,
                     f"none (nvidia-smi: {answer.why()})")
    rows = [line.strip() for line in answer.stdout.splitlines() if line.strip()]
    return Check("devices", "nvidia", "NVIDIA GPUs", Status.INFO,
                 "; ".join(rows) + ": HIP code runs on them with HIP_PLATFORM=nvidia "
                 "(hipcc over nvcc and the CUDA toolkit)" if rows else "none")


def _offload_check(gpus: list[AmdGpu]) -> Check:
    targets = sorted({gpu.gfx for gpu in gpus})
    if not targets:
        return Check("devices", "offload-arch", "Offload targets", Status.INFO,
                     "no AMD GPU here: build for the GPUs you deploy to "
                     "(hipport's default: gfx90a;gfx942)")
    flags = " ".join(f"--offload-arch={t}" for t in targets)
    return Check("devices", "offload-arch", "Offload targets", Status.OK,
                 f"{flags}  (CMake: -DCMAKE_HIP_ARCHITECTURES=\"{';'.join(targets)}\")",
                 data=(("targets", ";".join(targets)),))
