"""The fuzz properties in CI: derandomised and bounded (a few seconds).
`python -m tests.fuzz.long_run` runs the same properties for longer."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hipport.api import convert_source
from hipport.settings import Settings
from tests.fuzz.properties import SETTINGS, check_conversion, cuda_like

BOUNDED = settings(derandomize=True, max_examples=150, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@BOUNDED
@given(cuda_like(), SETTINGS)
def test_generated_sources(source: bytes, config: Settings) -> None:
    check_conversion(source, config)


@BOUNDED
@given(st.binary(max_size=400))
def test_arbitrary_bytes(source: bytes) -> None:
    check_conversion(source, Settings())


@BOUNDED
@given(cuda_like(), st.integers(0, 10_000), st.binary(min_size=1, max_size=4))
def test_generated_sources_with_corrupted_bytes(source: bytes, at: int, junk: bytes) -> None:
    at = at % (len(source) + 1)
    check_conversion(source[:at] + junk + source[at:], Settings())


def test_found_by_fuzzing_non_utf8_type_in_a_declaration() -> None:
    # A hazard query's regex predicate on a wildcard capture decoded the text
    # of a type the parser could not read: UnicodeDecodeError (HP006).
    source = b"caf\xe9\tauto r = 1;\nhipblasHandle_t hd; hipblasCreate(&hd); caf\xe9\n"
    check_conversion(source, Settings())
    assert "HP006" not in {f.code for f in convert_source(source).findings}


def test_found_by_fuzzing_non_utf8_struct_keyword_before_device_prop() -> None:
    # The same kind of crash through `struct\x80 cudaDeviceProp`: the predicate
    # looked at the whole struct specifier, invalid byte included.
    source = b"struct\x80 cudaDeviceProp q; q.major;\n{\n\xef\xbb\xbf\n\r\n"
    check_conversion(source, Settings())
    assert "HP006" not in {f.code for f in convert_source(source).findings}


def test_found_by_fuzzing_launch_spanning_two_statements_after_a_parse_error() -> None:
    # After a stray `*/`, the parser's recovery read `A; k<<<...>>>(d)` as one
    # launch whose kernel was the whole first statement; a second conversion
    # wrapped it: hipLaunchKernelGGL(hipLaunchKernelGGL(k, ...); k, ...).
    config = Settings(launch_syntax="hip")
    source = (b"*/\n" + b"a" * 3000 + b"\nvoid h() { k<<<1, 64>>>(d); "
              b"k<<<dim3(2), 32, 0, s>>>(d); }\n")
    check_conversion(source, config)
    output = convert_source(source, config).output
    assert b"hipLaunchKernelGGL(hipLaunchKernelGGL" not in convert_source(output, config).output
