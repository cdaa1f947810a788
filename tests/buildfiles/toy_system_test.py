"""Adding a build system is one folder: the toy one in tests/buildfiles/toy
is registered and every part of hipport that deals in build files uses it."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.buildfiles import detect_build_kind
from hipport.buildfiles.system import BUILD_SYSTEMS, build_system, build_systems
from hipport.cli import cli
from hipport.verify.buildflags import tree_flags
from tests.buildfiles.toy import Toy
from tests.verify.cli_test import FAKE_HIPCC


@pytest.fixture
def toy():
    build_systems()  # the real ones first
    build_system(Toy)
    yield
    del BUILD_SYSTEMS["toy"]


def test_it_is_detected(toy):
    assert detect_build_kind("src/build.toy") == "toy"
    assert detect_build_kind("src/CMakeLists.txt") == "cmake"


def test_a_tree_with_it_is_converted(toy, tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "build.toy").write_text("cc = nvcc\nflags = -arch=sm_80 -O2\n")
    (src / "k.cu").write_text("void f(float* p) { cudaFree(p); }\n")
    result = CliRunner().invoke(cli, ["convert", str(src), "-o", str(tmp_path / "out"),
                                      "--offload-arch", "gfx942", "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "build.toy").read_text() == \
        "cc = hipcc\nflags = --offload-arch=gfx942\n"
    assert "2 files converted" in result.stderr


def test_the_compat_strategy_asks_it_for_its_single_source_form(toy, tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "build.toy").write_text("cc = nvcc\n")
    result = CliRunner().invoke(cli, ["convert", str(src), "--strategy", "compat", "--diff",
                                      "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.stderr
    assert "HP656 toy build files have no HIP switch" in result.stderr


def test_a_file_it_cannot_read_is_left_alone(toy, tmp_path: Path):
    (tmp_path / "build.toy").write_text("cc nvcc\n")
    result = CliRunner().invoke(cli, ["convert", str(tmp_path / "build.toy"), "--diff",
                                      "--no-cache"])
    assert "HP655 not converted: expected KEY = VALUE" in result.stderr


def test_verify_reads_its_flags(toy, tmp_path: Path):
    (tmp_path / "build.toy").write_text("define = USE_TOY\n")
    (tmp_path / "k.cu").write_text("")
    assert tree_flags(tmp_path / "k.cu", tmp_path) == ["-DUSE_TOY"]


def test_verify_builds_it_with_its_own_steps(toy, tmp_path: Path, monkeypatch):
    fake_hipcc = tmp_path / "hipcc"
    fake_hipcc.write_text(FAKE_HIPCC)
    fake_hipcc.chmod(0o755)
    monkeypatch.delenv("FAKE_LOG", raising=False)
    src = tmp_path / "t"
    src.mkdir()
    (src / "build.toy").write_text("cc = hipcc\n")
    (src / "ok.hip").write_text("fine\n")
    (src / "bad.hip").write_text("int x;\nBROKEN\n")
    result = CliRunner().invoke(cli, ["verify", str(src), "--hipcc", str(fake_hipcc)])
    assert f"{src}/bad.hip:2:7: HP658 error: use of undeclared identifier 'BROKEN' " \
           "(compiling for gfx90a)" in result.stderr, result.stderr
    assert f"  in Toy project {src}" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("0 of 1 project build (Toy) with hipcc")
    assert sorted(p.name for p in src.iterdir()) == ["bad.hip", "build.toy", "ok.hip"]
