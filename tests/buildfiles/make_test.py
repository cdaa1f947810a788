"""Makefile rules and nvcc flags: before/after pairs and look-alikes that stay."""
from __future__ import annotations

import pytest

from hipport.buildfiles import convert_build_file
from hipport.settings import Settings

OPTS = Settings(offload_arch=("gfx90a", "gfx942"))
ROCM_ROOT = "$(shell hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)"
ARCHS = "--offload-arch=gfx90a --offload-arch=gfx942"


def convert(text: str):
    return convert_build_file(text.encode(), "make", OPTS)


@pytest.mark.parametrize("before, after", [
    pytest.param("NVCC ?= nvcc\n", "HIPCC ?= hipcc\n", id="compiler"),
    pytest.param("NVCC      ?= nvcc\n", "HIPCC     ?= hipcc\n", id="aligned-compiler"),
    pytest.param("NVCC ?= $(CUDA_PATH)/bin/nvcc\n", "HIPCC ?= $(ROCM_PATH)/bin/hipcc\n",
                 id="compiler-path"),
    pytest.param("CUDA_HOME ?= /usr/local/cuda-12.2\n",
                 f"ifndef ROCM_PATH\nROCM_PATH := {ROCM_ROOT}\nendif\n",
                 id="cuda-home-versioned-path"),
    pytest.param("CUDA_PATH      ?= /usr/local/cuda # the toolkit\nNVCC := nvcc\n",
                 f"ifndef ROCM_PATH\nROCM_PATH := {ROCM_ROOT} # the toolkit\nendif\n"
                 "HIPCC := hipcc\n", id="toolkit-root-conditional"),
    pytest.param("CUDA_PATH=/usr/local/cuda/\n", f"ROCM_PATH := {ROCM_ROOT}\n",
                 id="toolkit-root-plain"),
    pytest.param("export CUDA_PATH ?= /usr/local/cuda\n", "export ROCM_PATH ?= /opt/rocm\n",
                 id="toolkit-root-exported-kept"),
    pytest.param("CUDA_PATH ?= /usr/local/cuda /opt/x\n", "ROCM_PATH ?= /opt/rocm /opt/x\n",
                 id="toolkit-root-not-one-path"),
    pytest.param("all:\n\t/usr/local/cuda/bin/nvcc -O2 -o x x.cu\n",
                 "all:\n\thipcc -O2 -o x x.cu\n", id="literal-toolkit-nvcc-from-path"),
    pytest.param("NVCC := /usr/local/cuda-12.4/bin/nvcc\n", "HIPCC := hipcc\n",
                 id="literal-versioned-toolkit-nvcc"),
    pytest.param("NVCC := /usr/local/cuda/bin/nvcc.sh\n", "HIPCC := /opt/rocm/bin/nvcc.sh\n",
                 id="literal-toolkit-other-program-look-alike"),
    pytest.param("LIBS := -L/usr/local/cuda/lib64 -lcudart\n", "LIBS := -L/opt/rocm/lib "
                 "-lamdhip64\n", id="lib64-and-cudart"),
    pytest.param("F := -arch=sm_80\n", f"F := {ARCHS}\n", id="arch-equals"),
    pytest.param("F := -arch sm_80 -O2\n", f"F := {ARCHS} -O2\n", id="arch-space"),
    pytest.param("F := -gencode arch=compute_70,code=sm_70 -gencode=arch=compute_80,code=sm_80"
                 " -O2\n", f"F := {ARCHS} -O2\n", id="several-gencode"),
    pytest.param("G := $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))\n",
                 f"G := {ARCHS}\n", id="foreach-gencode"),
    pytest.param("CU_FLAGS += $(foreach cc,$(GPU_ARCH), \\\n\t --generate-code "
                 "arch=compute_$(cc),code=sm_$(cc) )\n", f"CU_FLAGS += {ARCHS}\n",
                 id="foreach-generate-code-continued"),
    pytest.param("scan: scan.cu scan_v1.o scan_v2.o\n\t$(NVCC) -O2 -o $@ $+\n",
                 "scan: scan_v1.o scan_v2.o scan.cu\n\t$(HIPCC) -O2 -o $@ $+\n",
                 id="objects-before-cu-prerequisite"),
    pytest.param("app: main.cu util.o\n\tnvcc -o app main.cu util.o -lm\n",
                 "app: main.cu util.o\n\thipcc -o app util.o main.cu -lm\n",
                 id="objects-before-cu-on-the-command"),
    pytest.param("app: main.cu b.o\n\t$(NVCC) -o $@ $< b.o\n",
                 "app: main.cu b.o\n\t$(HIPCC) -o $@ b.o $<\n", id="objects-before-first-input"),
    pytest.param("F := -Xcompiler -fopenmp,-Wall\n", "F := -fopenmp -Wall\n", id="xcompiler"),
    pytest.param("F := -O2 -Xptxas -v -lineinfo\n", "F := -O2 -gline-tables-only\n",
                 id="xptxas-dropped-lineinfo"),
    pytest.param("F := --ptxas-options=-v --expt-relaxed-constexpr --extended-lambda -O3\n",
                 "F := -O3\n", id="dropped-at-start"),
    pytest.param("NVCCFLAGS := -O3 -forward-unknown-to-host-compiler --threads 4 -Werror "
                 "reorder\n", "HIPCCFLAGS := -O3 -Werror=reorder\n", id="nvcc-driver-options"),
    pytest.param("NVCC_FLAGS=-m64 --resource-usage -lineinfo\n",
                 "HIPCC_FLAGS=-m64 -Rpass-analysis=kernel-resource-usage -gline-tables-only\n",
                 id="resource-usage"),
    pytest.param("F := -rdc=true --use_fast_math\n", "F := -fgpu-rdc -ffast-math\n",
                 id="rdc-fast-math"),
    pytest.param("k.o: k.cu\n\tnvcc -dc -x cu k.cu -o k.o\n",
                 "k.o: k.cu\n\thipcc -fgpu-rdc -c -x hip k.cu -o k.o\n", id="recipe-dc"),
    pytest.param("L := -lcublas -lcufft -lcurand -lcusparse -lcusolver -lnccl\n",
                 "L := -lhipblas -lhipfft -lhiprand -lhipsparse -lhipsolver -lrccl\n",
                 id="libraries"),
    pytest.param("F := -O2 \\\n  -Xcompiler -Wall \\\n  -lineinfo\n",
                 "F := -O2 \\\n  -Wall \\\n  -gline-tables-only\n", id="continuations"),
    pytest.param("ifdef CUDA_PATH\nX := $(CUDA_PATH)\nendif\n",
                 "ifdef ROCM_PATH\nX := $(ROCM_PATH)\nendif\n", id="directive"),
    pytest.param("OBJS := $(SRCS:.cu=.o) # nvcc -arch=sm_80 in a comment\n",
                 "OBJS := $(SRCS:.cu=.o) # nvcc -arch=sm_80 in a comment\n", id="comment-kept"),
    pytest.param("F := -ccbin g++ -O2\n", "F := -O2\n", id="ccbin"),
    pytest.param("%.o: %.cu\n\tnvcc -arch=sm_80 -dc $< -o $@\napp: a.o b.o\n"
                 "\tnvcc -arch=sm_80 a.o b.o -o app\n",
                 f"%.o: %.cu\n\thipcc {ARCHS} -fgpu-rdc -c $< -o $@\napp: a.o b.o\n"
                 f"\thipcc -fgpu-rdc {ARCHS} a.o b.o -o app\n", id="rdc-link-of-dc-objects"),
    # -G is an error to hipcc 5.2 and ROCm 6.4's Clang (`unsupported option '-G'`, issue 26)
    pytest.param("ifeq ($(dbg),1)\n  NVCCFLAGS += -g -G\nendif\n",
                 "ifeq ($(dbg),1)\n  HIPCCFLAGS += -g -ggdb -O0\nendif\n", id="device-debug"),
    pytest.param("k.o: k.cu\n\tnvcc -G -O0 -c k.cu\n", "k.o: k.cu\n\thipcc -ggdb -O0 -c k.cu\n",
                 id="device-debug-with-O0"),
    pytest.param("F := --device-debug\n", "F := -ggdb -O0\n", id="device-debug-long"),
    pytest.param("NVCC := nvcc -O2\nRDC := -rdc=true\nk.o: k.cu\n\t$(NVCC) $(RDC) -c k.cu\n"
                 "app: k.o\n\tcd out && $(NVCC) ../k.o -o app\n",
                 "HIPCC := hipcc -O2\nRDC := -fgpu-rdc\nk.o: k.cu\n\t$(HIPCC) $(RDC) -c k.cu\n"
                 "app: k.o\n\tcd out && $(HIPCC) -fgpu-rdc ../k.o -o app\n",
                 id="rdc-link-flags-through-variables"),
    pytest.param("$(foreach sm, ${SMS}, $(eval GENCODE_FLAGS += -gencode "
                 "arch=compute_$(sm),code=sm_$(sm)))\n",
                 "GENCODE_FLAGS += --offload-arch=gfx90a --offload-arch=gfx942\n",
                 id="architecture-loop"),
    pytest.param("$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode=arch=compute_$(sm),"
                 "code=[compute_$(sm),sm_$(sm)]))\n",
                 "GENCODE_FLAGS += --offload-arch=gfx90a --offload-arch=gfx942\n",
                 id="architecture-loop-with-ptx"),
    pytest.param("x: x.cu\n\tnvcc -Xcompiler -export-dynamic -o x x.cu\n",
                 "x: x.cu\n\thipcc -rdynamic -o x x.cu\n", id="host-export-dynamic"),
])
def test_make_fixes(before: str, after: str):
    result = convert(before)
    assert result.output.decode() == after
    assert convert(after).output.decode() == after, "converting twice must change nothing"


@pytest.mark.parametrize("text", [
    pytest.param("MY_CUDA_FLAGS := -O2\nCUDA_SOMETHING_ELSE = 1\n$(info $(MY_CUDA_FLAGS))\n",
                 id="user-variables"),
    pytest.param("# NVCC ?= nvcc -arch=sm_80 -lcublas\n", id="comment-line"),
    pytest.param("define RULE\n\tnvcc -arch=sm_80 $(1)\nendef\n", id="define-body"),
    pytest.param("CFLAGS := -arch x86_64 -G -dc\n", id="host-look-alikes"),
    pytest.param("all:\n\techo nvcc-like > nvcc.log\n", id="nvcc-in-other-words"),
    pytest.param("LIBS := -lm -lpthread -lcurses\n", id="other-libraries"),
    pytest.param("%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n", id="automatic-variables"),
    pytest.param("MY_CUDA_PATH ?= /usr/local/cuda-tools\n", id="toolkit-root-look-alike"),
    pytest.param("F = -fgpu-rdc\nk.o: k.cu\n\thipcc $(F) -c k.cu\napp: k.o\n"
                 "\thipcc $(F) k.o -o app\n", id="rdc-link-already-hip"),
    pytest.param("$(foreach f,$(FILES),$(eval OBJS += $(f).o))\n", id="other-loop"),
    pytest.param("$(foreach sm,$(SMS),$(eval SM_LIST += $(sm)))\n", id="loop-without-flags"),
    # link inputs: objects already first; $< would name another file; an archive's
    # place decides its symbols; a C compiler's command
    pytest.param("app: a.o main.cu\n\thipcc -o $@ $^\n", id="objects-already-first"),
    pytest.param("app: main.cu a.o\n\thipcc -o $@ $< $(EXTRA) $^\n", id="recipe-with-first"),
    pytest.param("app: main.cu lib.a\n\thipcc -o $@ $^\n", id="archive-not-moved"),
    pytest.param("app: main.c a.o\n\t$(CC) -o $@ $^\n", id="c-compiler-link"),
])
def test_make_noop(text: str):
    result = convert(text)
    assert result.output.decode() == text
    assert not [f for f in result.findings if f.code < "HP650"]


@pytest.mark.parametrize("text, code", [
    pytest.param("F := -maxrregcount=32\n", "HP650", id="maxrregcount"),
    pytest.param("F := --keep-dir tmp\n", "HP650", id="keep-dir"),
    pytest.param("L := -lnvfatbin -lnvToolsExt\n", "HP652", id="unknown-library"),
    pytest.param("F := -Xcompiler \"-Wall -Wextra\"\n", "HP650", id="quoted-xcompiler"),
])
def test_make_reported(text: str, code: str):
    result = convert(text)
    found = [f.finding for f in result.findings if f.code == code]
    assert found, [f.code for f in result.findings]
    for f in found:
        assert f.fix is None
        assert text.encode()[f.start:f.end] in result.output


def test_arch_variable_is_named_in_the_message():
    result = convert("F := -arch=sm_$(SM)\n")
    assert result.output.decode() == f"F := {ARCHS}\n"
    assert "$(SM) no longer selects the GPU" in result.findings[0].finding.message


@pytest.mark.parametrize("text", [
    pytest.param("app: k.cu\n\tnvcc -arch=sm_80 k.cu -o app\n", id="no-rdc-in-the-makefile"),
    pytest.param("F := -rdc=true\nk.o: k.cu\n\tnvcc $(F) -c k.cu\napp: k.o\n"
                 "\tnvcc $(F) k.o -o app\n", id="link-already-rdc-through-a-variable"),
    pytest.param("k.o: k.cu\n\tnvcc -dc k.cu\nd.o: k.o\n\tnvcc -dlink k.o -o d.o\n",
                 id="separate-device-link-step"),
])
def test_rdc_link_not_added(text: str):
    result = convert(text)
    assert b"nvcc -fgpu-rdc" not in result.output and b") -fgpu-rdc" not in result.output
    assert not [f for f in result.findings if "only with -fgpu-rdc" in f.finding.message]


# Makefiles that switch between a GPU and a CPU build on a variable (issue 32):
# the GPU branch is converted, the CPU branch stays as it was, and the switch
# itself keeps its name and default.
SWITCHED = """GPU ?= 1
ifeq ($(GPU),1)
COMPILER = $(NVCC)
FLAGS = -O2 -arch=sm_80
LIBS = -lcudart
else
COMPILER = $(CXX)
FLAGS = -O2 -march=native
LIBS = -lm
endif
ifdef USE_CUDA
LDFLAGS += -L$(CUDA_PATH)/lib64 -lcudart -lcublas
endif
"""


def test_both_branches_of_a_gpu_switch():
    out = convert(SWITCHED).output.decode()
    assert out == SWITCHED.replace("$(NVCC)", "$(HIPCC)").replace(
        "-arch=sm_80", ARCHS).replace("LIBS = -lcudart", "LIBS = -lamdhip64").replace(
        "-L$(CUDA_PATH)/lib64 -lcudart -lcublas", "-L$(ROCM_PATH)/lib -lamdhip64 -lhipblas")
    cpu = out[out.index("else\n"):out.index("endif\n")]
    assert cpu == "else\nCOMPILER = $(CXX)\nFLAGS = -O2 -march=native\nLIBS = -lm\n"
