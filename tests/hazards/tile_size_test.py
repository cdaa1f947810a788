"""HP412: a cooperative-groups tile larger than the wavefront of the GPUs
built for (issue 26): HIP's `static_assert` "Tiled partition with size >
wavefront size" fails on both oracles for `tiled_partition<128>`, and for
`tiled_partition<64>` on RDNA GPUs (32-lane wavefronts), e.g. gfx1100."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.cli import cli
from hipport.settings import Settings
from tests.hazards.helpers import found
from tests.toolchain import HIP_OFFLOAD_ARCH, compile_hip, require_hip_oracle

CG = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"


def device(body: str) -> str:
    return CG + f"__device__ void f(cg::thread_block b) {{\n{body}\n}}\n"


TOO_LARGE = [
    pytest.param(device("auto t = cg::tiled_partition<128>(b);"), id="template-128"),
    pytest.param(device("auto t = cooperative_groups::tiled_partition<256u>(b);"),
                 id="template-qualified-suffix"),
    pytest.param(device("cg::thread_block_tile<128> t = make(b);"), id="tile-type"),
    pytest.param(device("cg::thread_group t = cg::tiled_partition(b, 128);"), id="call-form"),
    pytest.param(device("auto t = cg::tiled_partition<0x80>(b);"), id="hex-size"),
    # The size first, then the parent group's type (HIP has both forms too).
    pytest.param(device("cg::thread_block_tile<128, cg::thread_block> t = make(b);"),
                 id="tile-type-with-parent"),
    pytest.param(device("auto t = cg::tiled_partition<128, cg::thread_block>(b);"),
                 id="template-with-parent"),
]


@pytest.mark.parametrize("source", TOO_LARGE)
def test_a_tile_larger_than_every_amd_wavefront_is_reported(source):
    assert found(source, "HP412") == [4]


FITS = [
    pytest.param(device("auto t = cg::tiled_partition<64>(b);"), id="template-64"),
    pytest.param(device("auto t = cg::tiled_partition<32>(b);"), id="template-32"),
    pytest.param(device("cg::thread_group t = cg::tiled_partition(b, 16);"), id="call-16"),
    pytest.param(device("cg::thread_group t = cg::tiled_partition(b, n);"), id="call-variable"),
    pytest.param(device("auto t = my::tiled_partition<N>(b);"), id="template-parameter"),
    pytest.param(device("cg::thread_block_tile<32, cg::thread_block> t = make(b);"),
                 id="tile-type-with-parent-32"),
    pytest.param("int tiled_partition(int a, int n);\nint x = tiled_partition(1, 512);\n",
                 id="not-cooperative-groups-call"),
]


@pytest.mark.parametrize("source", FITS)
def test_tiles_that_fit_a_64_lane_wavefront_are_not_reported(source):
    assert found(source, "HP412") == []


def test_rdna_targets_have_32_lane_wavefronts():
    source = device("auto t = cg::tiled_partition<64>(b);")
    assert found(source, "HP412", offload_arch=("gfx90a", "gfx1100")) == [4]
    assert found(source, "HP412", offload_arch=("gfx90a:xnack+", "gfx942")) == []


def test_the_message_says_the_size_and_the_gpus():
    result = convert_source(device("auto t = cg::tiled_partition<64>(b);"),
                            Settings(offload_arch=("gfx1100",)))
    (finding,) = [f for f in result.findings if f.code == "HP412"]
    message = finding.finding.message
    assert "64 threads" in message and "32 lanes on gfx1100" in message
    assert "Tiled partition with size > wavefront size" in message


def test_a_tile_type_names_the_assertion_it_fails():
    result = convert_source(device("cg::thread_block_tile<128> t = make(b);"))
    (finding,) = [f for f in result.findings if f.code == "HP412"]
    assert "Tile size is either not a power of 2 or greater than the wavefront size" \
        in finding.finding.message


def test_convert_takes_the_gpus_from_offload_arch(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(device("auto t = cg::tiled_partition<64>(b);"))
    plain = CliRunner().invoke(cli, ["convert", str(f)])
    rdna = CliRunner().invoke(cli, ["convert", str(f), "--offload-arch", "gfx1100"])
    assert "HP412" not in plain.stderr and "HP412" in rdna.stderr


PROGRAM = CG + """#include <cuda_runtime.h>
__global__ void k(float* out)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<SIZE>(block);
    out[block.thread_rank()] = tile.thread_rank();
}
"""


def _agrees(size: int, archs: tuple[str, ...], tmp_path, oracle) -> None:
    result = convert_source(PROGRAM.replace("SIZE", str(size)),
                            Settings(offload_arch=(HIP_OFFLOAD_ARCH, *archs)))
    reported = [f for f in result.findings if f.code == "HP412"]
    path = tmp_path / "tile.hip"
    path.write_bytes(result.output)
    proc = compile_hip(path, extra_args=[f"--offload-arch={a}" for a in archs], oracle=oracle)
    assert (proc.returncode != 0) == bool(reported), proc.stderr[-2000:]
    if reported:
        assert "Tiled partition with size > wavefront size" in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("size", [64, 128])
def test_the_hazard_says_what_the_compiler_says_on_cdna(size, tmp_path, hip_oracle):
    _agrees(size, (), tmp_path, hip_oracle)


@pytest.mark.slow
@pytest.mark.parametrize("size", [32, 64])
def test_the_hazard_says_what_the_compiler_says_on_rdna(size, tmp_path):
    # HIP 5.2 has no device libraries for RDNA (gfx1100); ROCm 6.4 has
    _agrees(size, ("gfx1100",), tmp_path, require_hip_oracle("rocm-6.4"))
