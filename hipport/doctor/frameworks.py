"""PyTorch: is it there, is it a ROCm or a CUDA build, does it see a GPU.
It is looked for in the user's Python (``python3`` on PATH), in a child
process under a timeout: a broken or slow torch cannot hang or crash doctor,
and torch is imported only when ``importlib.util.find_spec`` finds it."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from hipport.children import plain
from hipport.doctor.model import Check, Status
from hipport.doctor.system import System

IMPORT_TIMEOUT = 20.0  # importing torch from a cold disk takes seconds

_PROBE = """\
import importlib.util, json, sys
if importlib.util.find_spec("torch") is None:
    print(json.dumps({"present": False})); sys.exit(0)
import torch
out = {"present": True, "version": torch.__version__,
       "hip": getattr(torch.version, "hip", None), "cuda": getattr(torch.version, "cuda", None),
       "path": getattr(torch, "__file__", None)}
try:
    out["devices"] = torch.cuda.device_count() if torch.cuda.is_available() else 0
    out["device"] = torch.cuda.get_device_name(0) if out["devices"] else None
except Exception as exc:
    out["devices"], out["device_error"] = 0, f"{type(exc).__name__}: {exc}"
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Torch:
    present: bool
    version: str = ""
    hip: str | None = None
    cuda: str | None = None
    devices: int = 0
    device: str | None = None


def probe_torch(system: System, amd_gpu: bool) -> tuple[Torch | None, list[Check]]:
    python = system.python or system.find("python3") or sys.executable
    answer = system.run([python, "-c", _PROBE], system.env, max(system.timeout, IMPORT_TIMEOUT))
    title = "PyTorch"
    if not answer.ok:
        return None, [Check("frameworks", "torch", title, Status.WARN,
                            f"importing torch in {python} failed: {answer.why()}",
                            "reinstall torch, or run doctor with the environment you use")]
    try:
        raw = json.loads(answer.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, [Check("frameworks", "torch", title, Status.WARN,
                            f"unexpected answer from {python}: {answer.stdout[:120]!r}")]
    if not raw.get("present"):
        return Torch(False), [Check("frameworks", "torch", title, Status.INFO,
                                    f"not installed in {python}")]
    # JSON strings may carry any character (\u001b): shown as plain text.
    torch = Torch(True, plain(str(raw.get("version", ""))), _text(raw.get("hip")),
                  _text(raw.get("cuda")), int(raw.get("devices") or 0), _text(raw.get("device")))
    data = (("python", python), ("version", torch.version), ("hip", torch.hip or ""),
            ("cuda", torch.cuda or ""), ("devices", str(torch.devices)))
    return torch, [_torch_check(torch, python, amd_gpu, data)]


def _text(value: object) -> str | None:
    return None if value is None else plain(str(value))


def _torch_check(torch: Torch, python: str, amd_gpu: bool,
                 data: tuple[tuple[str, str], ...]) -> Check:
    seen = f"; sees {torch.devices} GPU(s): {torch.device}" if torch.devices else "; sees no GPU"
    if torch.hip:
        if amd_gpu and not torch.devices:
            return Check("frameworks", "torch", "PyTorch", Status.WARN,
                         f"{torch.version}, ROCm build (HIP {torch.hip}){seen}",
                         "check /dev/kfd access and HIP_VISIBLE_DEVICES; an unsupported gfx "
                         "target may need HSA_OVERRIDE_GFX_VERSION", data=data)
        return Check("frameworks", "torch", "PyTorch", Status.OK,
                     f"{torch.version}, ROCm build (HIP {torch.hip}){seen}", data=data)
    build = f"CUDA build (CUDA {torch.cuda})" if torch.cuda else "CPU-only build"
    advice = "install a ROCm build: pip install torch --index-url " \
             "https://download.pytorch.org/whl/rocm<X.Y> (pytorch.org lists the versions)"
    if amd_gpu:
        return Check("frameworks", "torch", "PyTorch", Status.WARN,
                     f"{torch.version}, {build}: it cannot use the AMD GPU{seen}", advice,
                     data=data)
    return Check("frameworks", "torch", "PyTorch", Status.INFO,
                 f"{torch.version}, {build} in {python}{seen}",
                 "" if not torch.cuda else advice, data=data)
