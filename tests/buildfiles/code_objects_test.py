"""Device code objects a driver-API program loads (HP617: hipport.buildfiles.
code_objects and cmake.code_objects): nvcc's -fatbin/-cubin/-ptx builds become
hipcc --genco builds of the same file.  tests/buildfiles/code_object_build_test.py
builds such a project with both HIP oracles."""
from __future__ import annotations

import pytest

from hipport.buildfiles import convert_build_file
from hipport.settings import Settings

OPTIONS = Settings(offload_arch=("gfx90a", "gfx942"))
OFFLOAD = "--offload-arch=gfx90a --offload-arch=gfx942"


def convert(text: str, kind: str) -> tuple[str, list[str]]:
    result = convert_build_file(text.encode(), kind, OPTIONS)
    out = result.output.decode()
    again = convert_build_file(out.encode(), kind, OPTIONS).output.decode()
    assert again == out, "converting twice must change nothing"
    return out, [f.code for f in result.findings]


@pytest.mark.parametrize("before, after", [
    ("k.cubin: k.cu\n\t$(NVCC) -cubin -arch=sm_80 -o $@ $<\n",
     f"k.cubin: k.cu\n\t$(HIPCC) --genco {OFFLOAD} -o $@ $<\n"),
    ("%.ptx: %.cu\n\t$(NVCC) -ptx $(GENCODE) -o $@ $<\n",
     "%.ptx: %.cu\n\t$(HIPCC) --genco $(GENCODE) -o $@ $<\n"),
    # nvcc's default architecture: hipcc's would be the build machine's GPU
    ("k.fatbin: k.cu\n\tnvcc --fatbin -o k.fatbin k.cu\n",
     f"k.fatbin: k.cu\n\thipcc --genco {OFFLOAD} -o k.fatbin k.cu\n"),
    # without -o nvcc wrote k.ptx, hipcc would write k.cu-hip-amdgcn-amd-amdhsa.hipfb
    ("%.ptx: %.cu\n\t$(NVCC) -ptx -arch=sm_70 $<\n",
     f"%.ptx: %.cu\n\t$(HIPCC) --genco -o $@ {OFFLOAD} $<\n"),
])
def test_make_device_code_becomes_a_hip_code_object(before: str, after: str):
    out, codes = convert(before, "make")
    assert out == after
    assert "HP617" in codes


@pytest.mark.parametrize("text", [
    "k.o: k.cu\n\t$(NVCC) -c -o $@ $<\n",          # an object file, not device code
    "doc.ptx: doc.txt\n\tcp doc.txt doc.ptx -ptx\n",  # not nvcc's -ptx
    "FLAGS := -ptx\n",                                 # a variable of no compiler
])
def test_make_look_alikes_keep_their_words(text: str):
    out, codes = convert(text, "make")
    assert "--genco" not in out and "HP617" not in codes


CMAKE = """\
foreach(arch ${{CMAKE_CUDA_ARCHITECTURES}})
  list(APPEND GENCODE -gencode=arch=compute_${{arch}},code=sm_${{arch}})
endforeach()
add_custom_command(OUTPUT k.fatbin
  COMMAND {nvcc} -fatbin ${{GENCODE}} -o k.fatbin ${{CMAKE_CURRENT_SOURCE_DIR}}/k.cu
  DEPENDS k.cu)
"""
CMAKE_AFTER = """\
foreach(arch ${CMAKE_HIP_ARCHITECTURES})
  list(APPEND GENCODE --offload-arch=${arch})
endforeach()
find_package(hip REQUIRED)
add_custom_command(OUTPUT k.fatbin
  COMMAND HIPCC --genco ${GENCODE} -o k.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/k.cu
  DEPENDS k.cu)
""".replace("HIPCC", "${hip_BIN_INSTALL_DIR}/hipcc")


@pytest.mark.parametrize("nvcc", ["${CMAKE_CUDA_COMPILER}", "${CUDAToolkit_NVCC_EXECUTABLE}",
                                  "nvcc", '"${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc"'])
def test_cmake_custom_command_runs_hipcc_over_the_gpu_list(nvcc: str):
    out, codes = convert(CMAKE.format(nvcc=nvcc), "cmake")
    assert out == CMAKE_AFTER
    assert {"HP603", "HP609", "HP617"} <= set(codes)


def test_cmake_in_lists_loop_and_literal_architectures():
    text = ("foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)\n"
            "  list(APPEND G --generate-code=arch=compute_${a},code=[compute_${a},sm_${a}])\n"
            "endforeach()\n"
            "find_package(CUDAToolkit REQUIRED)\n"
            "add_custom_command(OUTPUT k.cubin COMMAND ${CMAKE_CUDA_COMPILER} -cubin "
            "-arch=sm_80 -o k.cubin k.cu)\n")
    out, _ = convert(text, "cmake")
    assert "list(APPEND G --offload-arch=${a})" in out
    assert f"COMMAND ${{hip_BIN_INSTALL_DIR}}/hipcc --genco {OFFLOAD} -o k.cubin k.cu" in out
    assert out.count("find_package(hip") == 1  # the toolkit's, converted: none added


def test_cmake_loop_over_another_list_gets_the_fixed_targets():
    """`foreach(sm ${MY_SMS})`: the list is the project's own numbers, not the
    HIP architectures: the offload list, not --offload-arch=${sm}."""
    text = ("foreach(sm ${MY_SMS})\n  list(APPEND G -gencode=arch=compute_${sm},code=sm_${sm})\n"
            "endforeach()\n")
    out, _ = convert(text, "cmake")
    assert f"list(APPEND G {OFFLOAD})" in out


@pytest.mark.parametrize("text", [
    # a custom command that is not nvcc's: its words are not nvcc flags
    "add_custom_command(OUTPUT doc.ptx COMMAND python gen.py -ptx -o doc.ptx)\n",
    # a list of the project's own words
    "list(APPEND NAMES compute_80 sm_80 -fatbin)\n",
    # the loop variable of a loop over the GPU list, in a non-flag word
    "foreach(arch ${CMAKE_CUDA_ARCHITECTURES})\n  message(STATUS ${arch})\nendforeach()\n",
])
def test_cmake_look_alikes_keep_their_words(text: str):
    out, codes = convert(text, "cmake")
    assert "--genco" not in out and "--offload-arch" not in out and "hipcc" not in out.lower()
    assert "HP617" not in codes


def test_cmake_in_items_loop_over_the_gpu_list():
    text = ("foreach(a IN ITEMS ${CMAKE_CUDA_ARCHITECTURES})\n"
            "  list(APPEND G -gencode=arch=compute_${a},code=sm_${a})\nendforeach()\n")
    out, _ = convert(text, "cmake")
    assert "list(APPEND G --offload-arch=${a})" in out


@pytest.mark.parametrize("name", ["CUDA_PTX_COMPILATION", "CUDA_FATBIN_COMPILATION"])
def test_cmake_device_output_property_says_how(name: str):
    """CMake's HIP language has no such compilation: a manual step (HP653)
    that names the custom command, not an unknown property (HP651)."""
    result = convert_build_file(f"set_property(TARGET k PROPERTY {name} ON)\n".encode(), "cmake",
                                OPTIONS)
    found = {f.code: f.finding.message for f in result.findings}
    assert "HP651" not in found and "--genco" in found["HP653"]
