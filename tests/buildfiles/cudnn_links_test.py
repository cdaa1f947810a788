"""cuDNN in build files becomes MIOpen (issue 34 §2): `-lcudnn` links
`-lMIOpen`, and CMake finds the `miopen` package, whose config (ROCm 6.4 and
7.2: lib/cmake/miopen/miopen-targets.cmake) exports the target `MIOpen`."""
from __future__ import annotations

import pytest

from hipport.buildfiles import convert_build_file
from hipport.settings import Settings


def convert(text: str, kind: str) -> str:
    return convert_build_file(text.encode(), kind, Settings()).output.decode()


@pytest.mark.parametrize("before, after", [
    pytest.param("L := -lcudnn -lcublas\n", "L := -lMIOpen -lhipblas\n", id="link-flags"),
    pytest.param("L := -lcudnn_static\n", "L := -lMIOpen\n", id="static"),
])
def test_make_links_miopen(before, after):
    assert convert(before, "make") == after


@pytest.mark.parametrize("link", ["CUDNN::cudnn", "cudnn", "CUDA::cudnn"])
def test_cmake_finds_and_links_miopen(link):
    out = convert("find_package(CUDNN REQUIRED)\nadd_library(t t.cpp)\n"
                  f"target_link_libraries(t PRIVATE {link})\n", "cmake")
    assert "find_package(miopen REQUIRED)\n" in out
    assert "target_link_libraries(t PRIVATE MIOpen)\n" in out
    assert "CUDNN" not in out and "cudnn" not in out


def test_look_alike_library_names_stay():
    text = "L := -lcudnn_frontend_helpers -lmycudnn\n"
    assert convert(text, "make") == text
