"""HP618/HP619: a module file the program loads by name (`cuModuleLoad(&m,
"kernel.ptx")`) is a HIP code object only where the converted build makes it
(HP617 keeps the name); hipport/rules/module_files.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.buildfiles.build_facts import makes_code_objects
from hipport.cli import cli
from hipport.settings import Settings
from tests.trees import write_tree

BUILT = Settings(code_objects_built=True)
LOAD = "#include <cuda.h>\nvoid f(CUmodule* m) {{ cuModuleLoad(m, {file}); }}\n"


def codes(source: str, settings: Settings) -> list[str]:
    result = convert_source(source, settings, name="main.cpp")
    return [f.code for f in result.findings if f.code in ("HP618", "HP619")]


@pytest.mark.parametrize("file", ['"kernel.ptx"', '"kernels/k.cubin"', '"k.fatbin"'])
def test_a_loaded_device_file_is_reported(file: str):
    assert codes(LOAD.format(file=file), BUILT) == ["HP618"]
    assert codes(LOAD.format(file=file), Settings()) == ["HP619"]


@pytest.mark.parametrize("source", [
    LOAD.format(file='"kernel.hsaco"'),   # a name of AMD's: made for HIP already
    LOAD.format(file="path"),             # not a literal: nothing known
    '#include <cstdio>\nvoid f() { std::fopen("kernel.ptx", "r"); }\n',  # not a module load
    '#include <cuda.h>\nvoid f(CUmodule* m, const char* img) { cuModuleLoadData(m, img); }\n',
])
def test_look_alikes_are_not_reported(source: str):
    assert codes(source, BUILT) == [] and codes(source, Settings()) == []


@pytest.mark.parametrize("text, makes", [
    (b"\t$(NVCC) -ptx -o $@ $<", True),
    (b"COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -o k.fatbin k.cu", True),
    (b"\t$(HIPCC) --genco -o $@ $<", True),
    (b"\t$(NVCC) -c -o $@ $<  # k.ptx", False),
    (b"set(PTX_DIR ptx-files)", False),
])
def test_what_makes_code_objects(text: bytes, makes: bool):
    assert makes_code_objects(text) is makes


def test_the_run_reads_code_objects_from_the_build_files(tmp_path: Path):
    main = LOAD.format(file='"kernel.ptx"')
    rule = "kernel.ptx: kernel.cu\n\t$(NVCC) -ptx -o $@ $<\n"
    for name, makefile, code in (("built", rule, "HP618"),
                                 ("shipped", "app: main.cpp\n\tg++ -o $@ $<\n", "HP619")):
        tree = write_tree(tmp_path / name, {"Makefile": makefile, "main.cpp": main})
        out = tmp_path / f"{name}.out"
        result = CliRunner().invoke(cli, ["convert", str(tree), "-o", str(out), "-v"],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        other = ({"HP618", "HP619"} - {code}).pop()
        assert code in result.stderr and other not in result.stderr
        assert 'hipModuleLoad(m, "kernel.ptx")' in (out / "main.cpp").read_text()
