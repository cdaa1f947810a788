import shutil

import pytest

from hipport.doctor.devices import amd_gpus, gfx_name, probe_devices, read_properties
from hipport.doctor.model import Status
from hipport.doctor.system import System
from tests.doctor.roots import kfd_root

TOPOLOGY = "sys/class/kfd/kfd/topology/nodes"


@pytest.mark.parametrize(("value", "name"), [
    (90010, "gfx90a"), (90402, "gfx942"), (110000, "gfx1100"), (100302, "gfx1032"),
    (90500, "gfx950"), (120001, "gfx1201"),
])
def test_gfx_names(value, name):
    assert gfx_name(value) == name


@pytest.mark.parametrize(("system", "gfx", "cus", "gib"), [
    ("mi210", "gfx90a", 104, 64),
    ("rx7900xtx", "gfx1100", 96, 24),
])
def test_topology(system, gfx, cus, gib):
    [gpu] = amd_gpus(kfd_root(system) / TOPOLOGY)  # node 0, the CPU, is not a GPU
    assert (gpu.node, gpu.gfx, gpu.compute_units) == (1, gfx, cus)
    assert round(gpu.memory / 2**30) == gib  # a little is reserved by the driver


def test_properties_format():
    props = read_properties(kfd_root("mi210") / TOPOLOGY / "1" / "properties")
    assert props["gfx_target_version"] == 90010 and props["vendor_id"] == 0x1002


def _devices(root, path="/nonexistent"):
    return probe_devices(System(env={"PATH": path}, fs_root=root))


def test_amd_gpu_machine():
    gpus, checks = _devices(kfd_root("mi210"))
    by_id = {c.id: c for c in checks}
    assert by_id["kfd"].status is Status.OK
    assert "gfx90a, 104 compute units, 64 GiB" in by_id["gpu-1"].detail
    assert by_id["offload-arch"].detail.startswith("--offload-arch=gfx90a")
    assert 'CMAKE_HIP_ARCHITECTURES="gfx90a"' in by_id["offload-arch"].detail
    assert by_id["nvidia"].detail == "nvidia-smi not installed"


def test_two_kinds_of_gpu(tmp_path):
    root = tmp_path / "root"
    shutil.copytree(kfd_root("mi210"), root)
    shutil.copytree(kfd_root("rx7900xtx") / TOPOLOGY / "1", root / TOPOLOGY / "2")
    gpus, checks = _devices(root)
    assert [g.gfx for g in gpus] == ["gfx90a", "gfx1100"]
    offload = next(c for c in checks if c.id == "offload-arch")
    assert offload.detail.startswith("--offload-arch=gfx1100 --offload-arch=gfx90a")


@pytest.mark.parametrize("root", ["cpu-only", None])
def test_no_gpu_is_not_a_failure(tmp_path, root):
    gpus, checks = _devices(kfd_root(root) if root else tmp_path)
    assert gpus == []
    assert not any(c.fails for c in checks)
    assert next(c for c in checks if c.id == "kfd").status is Status.INFO
    assert "gfx90a;gfx942" in next(c for c in checks if c.id == "offload-arch").detail


def test_rocm_tools_are_not_run_without_kfd(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("rocminfo", "rocm-smi"):
        tool = bin_dir / name
        tool.write_text("#!/bin/sh\necho ran >> " + str(tmp_path / "log") + "\n")
        tool.chmod(0o755)
    _, checks = _devices(tmp_path, str(bin_dir))
    tools = next(c for c in checks if c.id == "rocm-tools")
    assert tools.detail == "rocminfo, rocm-smi installed, not run (no /dev/kfd)"
    assert not (tmp_path / "log").exists()


def test_this_machine_has_no_gpu():
    gpus, checks = probe_devices(System.current())
    if gpus:
        pytest.skip("this machine has an AMD GPU")
    assert not any(c.fails for c in checks)
