"""PyTorch detection, in a child Python.  The fake ``torch`` packages below
have just the attributes doctor reads (torch.__version__, torch.version.hip /
.cuda, torch.cuda.is_available / device_count / get_device_name); a real CPU
build of torch is used too when .toolchain/torch-venv has one (it is not
installed by the setup scripts: a PyPI torch is several GB of CUDA wheels)."""
import os
import sys
import time
from pathlib import Path

import pytest

from hipport.doctor.frameworks import probe_torch
from hipport.doctor.model import Status
from hipport.doctor.system import System
from tests.ci import missing
from tests.leftovers import survivors
from tests.toolchain import TOOLCHAIN_DIR

TORCH_VENV_PYTHON = TOOLCHAIN_DIR / "torch-venv" / "bin" / "python"


def fake_torch(tmp_path, *, version="2.5.1+rocm6.2", hip="6.2.41133-dd7f95766", cuda=None,
               devices=0, name="AMD Instinct MI210", body=""):
    package = tmp_path / "site" / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        f"{body}\n__version__ = {version!r}\n"
        "from torch import version, cuda\n")
    (package / "version.py").write_text(f"hip = {hip!r}\ncuda = {cuda!r}\n")
    (package / "cuda.py").write_text(
        f"def is_available():\n    return {devices} > 0\n"
        f"def device_count():\n    return {devices}\n"
        f"def get_device_name(i):\n    return {name!r}\n")
    return tmp_path / "site"


def _probe(site, amd=False, python=sys.executable, timeout=5.0):
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(site) if site else ""}
    return probe_torch(System(env=env, python=str(python), timeout=timeout), amd)


def test_rocm_build_with_a_gpu(tmp_path):
    torch, [check] = _probe(fake_torch(tmp_path, devices=1), amd=True)
    assert torch is not None and torch.hip == "6.2.41133-dd7f95766" and torch.devices == 1
    assert check.status is Status.OK
    assert "ROCm build (HIP 6.2.41133-dd7f95766); sees 1 GPU(s): AMD Instinct MI210" in check.detail


def test_rocm_build_that_sees_no_gpu_on_an_amd_machine(tmp_path):
    _, [check] = _probe(fake_torch(tmp_path, devices=0), amd=True)
    assert check.status is Status.WARN and "HSA_OVERRIDE_GFX_VERSION" in check.advice


def test_cuda_build_on_an_amd_machine(tmp_path):
    site = fake_torch(tmp_path, version="2.5.1+cu124", hip=None, cuda="12.4")
    _, [check] = _probe(site, amd=True)
    assert check.status is Status.WARN
    assert "CUDA build (CUDA 12.4): it cannot use the AMD GPU" in check.detail
    assert "download.pytorch.org/whl/rocm" in check.advice


def test_cuda_build_without_amd_gpu_is_information(tmp_path):
    site = fake_torch(tmp_path, version="2.5.1+cu124", hip=None, cuda="12.4")
    _, [check] = _probe(site, amd=False)
    assert check.status is Status.INFO


def test_not_installed():
    torch, [check] = _probe(None)
    assert torch is not None and not torch.present
    assert check.status is Status.INFO and check.detail.startswith("not installed in ")


def test_a_broken_torch_does_not_break_doctor(tmp_path):
    site = fake_torch(tmp_path, body="raise ImportError('libtorch_hip.so: cannot open')")
    torch, [check] = _probe(site)
    assert torch is None and check.status is Status.WARN
    assert "libtorch_hip.so: cannot open" in check.detail


def test_a_crashing_torch(tmp_path):
    site = fake_torch(tmp_path, body="import os; os.abort()")
    _, [check] = _probe(site)
    assert check.status is Status.WARN and "exit status -6" in check.detail


def test_a_hanging_torch_times_out(tmp_path, monkeypatch):
    monkeypatch.setattr("hipport.doctor.frameworks.IMPORT_TIMEOUT", 1.0)
    site = fake_torch(tmp_path, body="import time; time.sleep(60)")
    start = time.monotonic()
    _, [check] = _probe(site, timeout=1.0)
    assert time.monotonic() - start < 10
    assert check.status is Status.WARN and "did not answer within 1 s" in check.detail


def test_real_cpu_torch():
    if not TORCH_VENV_PYTHON.exists():
        # scripts/fetch-doctor-fixtures.sh installs it from a local CPU wheel
        # (/opt/wheels) and never downloads one: only a machine without that
        # wheel may skip.
        reason = f"no {TORCH_VENV_PYTHON} (scripts/fetch-doctor-fixtures.sh)"
        if list(Path("/opt/wheels").glob("torch-*+cpu-*.whl")):
            missing(reason)
        pytest.skip(reason + "; no local CPU PyTorch wheel on this machine")
    torch, [check] = _probe(None, python=TORCH_VENV_PYTHON)
    assert torch is not None and torch.present
    assert torch.hip is None and torch.cuda is None and torch.devices == 0
    assert check.status is Status.INFO and "CPU-only build" in check.detail


def test_a_hanging_torch_leaves_no_process_behind(tmp_path, monkeypatch):
    """The torch import starts a child of its own (a compiler, a server) and
    hangs: the time limit stops both."""
    monkeypatch.setattr("hipport.doctor.frameworks.IMPORT_TIMEOUT", 1.0)
    pids = tmp_path / "pids"
    body = ("import subprocess, time\n"
            f"p = subprocess.Popen(['sleep', '1000'])\nopen({str(pids)!r}, 'w').write(str(p.pid))\n"
            "time.sleep(60)")
    _, [check] = _probe(fake_torch(tmp_path, body=body), timeout=1.0)
    assert "did not answer within 1 s" in check.detail
    assert pids.exists() and survivors(pids) == []


def test_torch_strings_are_shown_without_terminal_control(tmp_path):
    site = fake_torch(tmp_path, version="2.5.1\x1b]0;pwned\x07", devices=1,
                      name="MI210\x1b[2J\x1b[31m")
    _, [check] = _probe(site, amd=True)
    assert "2.5.1, ROCm build" in check.detail and check.detail.endswith("sees 1 GPU(s): MI210")
