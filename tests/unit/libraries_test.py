"""The one library table (mappings/rocm-libraries.yaml) and its readers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.buildfiles.libraries import BY_LINK_NAME, BY_TARGET, PACKAGES
from hipport.codes import CODES, LIBRARY_CODES
from hipport.doctor.libraries import BY_CUDA
from hipport.errors import MappingFileError
from hipport.libraries import library_table, parse_library_table
from hipport.table.schema import LIBRARIES

REPO = Path(__file__).resolve().parents[2]


def test_every_reader_sees_the_same_libraries():
    table = library_table()
    assert LIBRARIES == table.cuda_keys
    assert set(LIBRARY_CODES) == set(LIBRARIES) == set(BY_CUDA)
    assert all(code in CODES for code in LIBRARY_CODES.values())
    assert BY_LINK_NAME["cublas"].target == "roc::hipblas"
    assert BY_TARGET["CCCL::CUB"].target == "hip::hipcub"
    assert PACKAGES == {"CUDAToolkit": "hip", "CUDA": "hip", "NCCL": "rccl", "CUB": "hipcub",
                        "Thrust": "rocthrust", "CUDNN": "miopen", "cuDNN": "miopen"}


def test_the_json_schema_lists_the_libraries_of_the_table():
    schema = json.loads((REPO / "mappings" / "schema.json").read_text())
    table = library_table()
    assert schema["properties"]["library"]["enum"] == list(table.cuda_keys)
    assert set(schema["properties"]["hip_library"]["enum"]) == {lib.rocm.key for lib in table.cuda}


_GOOD_ROCM = "  hip: {name: HIP, rocm_package: hip, cmake_target: hip::host}\n"


@pytest.mark.parametrize("text, message", [
    pytest.param("schema: hipport-libraries/1\ncuda:\n  runtime: {code: HP101, rocm: nothere}\n"
                 "rocm:\n" + _GOOD_ROCM, r"cuda\.runtime\.rocm: 'nothere' is not a key of rocm",
                 id="unknown-rocm-key"),
    pytest.param("schema: hipport-libraries/1\ncuda:\n  runtime: {code: HP101, rocm: hip, "
                 "colour: red}\nrocm:\n" + _GOOD_ROCM, r"cuda\.runtime\.colour: unknown key",
                 id="unknown-key"),
    pytest.param("schema: hipport-libraries/1\ncuda:\n  runtime: {code: HP101, rocm: hip, "
                 "link: [cudart]}\nrocm:\n  hip: {name: HIP, rocm_package: hip}\n",
                 r"cuda\.runtime\.rocm: build files name it, so rocm\.hip needs a cmake_target",
                 id="linked-without-target"),
    pytest.param("schema: hipport-libraries/2\ncuda: {}\nrocm: {}\n", r"\(top\)\.schema",
                 id="schema-version"),
    pytest.param("schema: hipport-libraries/1\ncuda:\n  runtime: {code: HP101, rocm: hip, "
                 "link: cudart}\nrocm:\n" + _GOOD_ROCM, r"cuda\.runtime\.link: expected a list",
                 id="link-not-a-list"),
])
def test_a_bad_table_is_refused_with_its_key_path(text, message):
    with pytest.raises(MappingFileError, match=message):
        parse_library_table(text, "t.yaml")


def test_a_good_table_reads():
    table = parse_library_table("schema: hipport-libraries/1\ncuda:\n  runtime: {code: HP101, "
                                "rocm: hip, link: [cudart]}\nrocm:\n" + _GOOD_ROCM, "t.yaml")
    assert table.by_link_name["cudart"].target == "hip::host"
    assert table.rocm[0].cuda == ("runtime",)
