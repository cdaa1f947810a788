"""The GPU targets a run writes into build files (hipport.gpus): hipport's
defaults less MI300 (gfx940-gfx942, no texture units) where the tree reads
textures, the user's --offload-arch as given."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.gpus import reads_textures, targets_for
from hipport.settings import Settings
from tests.trees import write_tree

KERNEL = ("#include <cuda_runtime.h>\n__global__ void k(cudaTextureObject_t t, float* o) {\n"
          "  o[0] = tex2D<float>(t, 0.5f, 0.5f);\n}\n")
PLAIN = "#include <cuda_runtime.h>\n__global__ void k(float* o) { o[0] = 1.f; }\n"
CMAKE = "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\n" \
        "set(CMAKE_CUDA_ARCHITECTURES 80)\nadd_executable(p k.cu)\n"
MAKEFILE = "k: k.cu\n\tnvcc -arch=sm_80 k.cu -o k\n"


@pytest.mark.parametrize("text, reads", [
    (b"o = tex2D<float>(t, x, y);", True), (b"tex1Dfetch (t, 3)", True),
    (b"surf2Dwrite(v, s, 0, 0);", True), (b"tex2D_bilinear(o, 0.5f)", False),
    (b"cudaTextureObject_t t;", False), (b"my_tex2D(t)", False),
])
def test_what_reads_textures(text: bytes, reads: bool):
    assert reads_textures(text) is reads


def test_only_the_default_targets_are_adapted(tmp_path: Path):
    (tmp_path / "k.cu").write_text(KERNEL)
    adapted = targets_for(Settings(), [tmp_path / "k.cu"])
    assert (adapted.offload_arch, adapted.offload_arch_left_out) == (("gfx90a",), ("gfx942",))
    given = Settings(offload_arch_given=True)
    assert targets_for(given, [tmp_path / "k.cu"]) is given
    chosen = Settings(offload_arch=("gfx942", "gfx1100"))
    assert targets_for(chosen, [tmp_path / "k.cu"]) is chosen
    (tmp_path / "plain.cu").write_text(PLAIN)
    assert targets_for(Settings(), [tmp_path / "plain.cu", tmp_path / "gone.cu"]) == Settings()


def convert(tree: Path, out: Path, *args: str):
    return CliRunner().invoke(cli, ["convert", str(tree), "-o", str(out), *args],
                              catch_exceptions=False)


def test_a_tree_that_reads_textures_builds_without_mi300(tmp_path: Path):
    tree = write_tree(tmp_path / "src", {"CMakeLists.txt": CMAKE, "k.cu": KERNEL,
                                         "make/Makefile": MAKEFILE, "make/k.cu": PLAIN})
    result = convert(tree, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert 'set(CMAKE_HIP_ARCHITECTURES "gfx90a")' in (tmp_path / "out/CMakeLists.txt").read_text()
    # one run, one list of targets: the Makefile beside a plain kernel too
    make = (tmp_path / "out/make/Makefile").read_text()
    assert "--offload-arch=gfx90a" in make and "gfx942" not in make
    assert "HP414" in result.stderr and "HP413" not in result.stderr
    assert "k.cu:3:" in result.stderr  # at the call


def test_named_targets_are_kept_and_each_access_is_a_blocker(tmp_path: Path):
    tree = write_tree(tmp_path / "src", {"CMakeLists.txt": CMAKE, "k.cu": KERNEL})
    result = convert(tree, tmp_path / "out", "--offload-arch", "gfx90a;gfx942")
    assert 'set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")' in \
        (tmp_path / "out/CMakeLists.txt").read_text()
    assert "HP413" in result.stderr and "HP414" not in result.stderr


def test_a_tree_without_textures_keeps_the_defaults(tmp_path: Path):
    tree = write_tree(tmp_path / "src", {"CMakeLists.txt": CMAKE, "k.cu": PLAIN})
    result = convert(tree, tmp_path / "out")
    assert 'set(CMAKE_HIP_ARCHITECTURES "gfx90a;gfx942")' in \
        (tmp_path / "out/CMakeLists.txt").read_text()
    assert "HP414" not in result.stderr
