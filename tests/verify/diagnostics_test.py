"""The first error of hipcc's output, with its include chain and side."""
from __future__ import annotations

import pytest

from hipport.verify.diagnostics import CompilerError, Included, first_error

HEADER_CHAIN = """\
In file included from a.hip:2:
inc/helper.h:2:39: error: use of undeclared identifier 'undeclared_thing'
inline int helper(int x) { return x + undeclared_thing; }
                                      ^
a.hip:3:36: error: no matching function for call to 'helper'
__global__ void k(int *p) { p[0] = helper(1); }
                                   ^~~~~~
inc/helper.h:2:12: note: candidate function not viable: call to __host__ function
2 errors generated when compiling for gfx90a.
"""

NESTED = """\
In file included from main.cu:3:
In file included from ./pipeline.cuh:7:
./detail/impl.h:10:5: fatal error: 'cuda_fp16.h' file not found
#include <cuda_fp16.h>
         ^~~~~~~~~~~~~
1 error generated when compiling for gfx90a.
"""

SYSTEM_HEADER = """\
In file included from <built-in>:1:
In file included from /usr/lib/llvm-15/lib/clang/15.0.6/include/__clang_hip_runtime_wrapper.h:124:
/usr/include/c++/12/ext/alloc_traits.h:47:47: error: type 'int' cannot be used prior to '::'
template<typename _Alloc, typename = typename _Alloc::value_type>
/usr/include/c++/12/bits/stl_vector.h:87:35: note: in instantiation of default argument
/tmp/v/sys.hip:4:23: note: in instantiation of template class 'std::vector<int, int>' requested here
std::vector<int, int> v;
1 error generated.
"""

# GCC 12 (CMake's C++ compiler) names the includer of the error's file first:
# main.cpp includes helper.h at line 1, helper.h includes x.h at line 2.
GCC_STYLE = """\
In file included from helper.h:2,
                 from main.cpp:1:
x.h:2:1: error: expected initializer before 'foo'
"""

DRIVER_NOISE = """\
clang: warning: -lgcc_s: 'linker' input unused [-Wunused-command-line-argument]
clang: warning: argument unused during compilation: '-L/usr/lib' [-Wunused-command-line-argument]
a.hip:4:3: error: use of undeclared identifier 'undeclared_in_device'
  undeclared_in_device();
  ^
1 error generated when compiling for gfx90a.
"""


def test_error_in_a_header_is_the_header_with_the_include_chain():
    error = first_error(HEADER_CHAIN)
    assert error == CompilerError(
        "use of undeclared identifier 'undeclared_thing'", "inc/helper.h", 2, 39,
        (Included("a.hip", 2),), "gfx90a")
    assert error.text == ("error: use of undeclared identifier 'undeclared_thing' "
                          "(compiling for gfx90a)")


def test_nested_chain_outermost_first_and_fatal():
    error = first_error(NESTED)
    assert error is not None and error.fatal
    assert (error.file, error.line, error.column) == ("./detail/impl.h", 10, 5)
    assert error.included_from == (Included("main.cu", 3), Included("./pipeline.cuh", 7))
    assert error.text.startswith("fatal error: 'cuda_fp16.h' file not found")


def test_error_in_a_system_header_keeps_the_notes_that_lead_back():
    error = first_error(SYSTEM_HEADER)
    assert error is not None and error.file == "/usr/include/c++/12/ext/alloc_traits.h"
    assert error.included_from[0] == Included("<built-in>", 1)
    assert Included("/tmp/v/sys.hip", 4) in error.notes
    assert error.target == "host"


def test_side_after_warnings_and_the_error_limit():
    output = ("a.hip:1:1: error: first\nfatal error: too many errors emitted, stopping now "
              "[-ferror-limit=]\n2 warnings and 20 errors generated when compiling for gfx942.\n")
    error = first_error(output)
    assert error is not None and error.target == "gfx942" and error.message == "first"


def test_gcc_style_continuation_lines_join_the_chain():
    error = first_error(GCC_STYLE)
    assert error is not None
    # outermost first, as Clang's lines are
    assert error.included_from == (Included("main.cpp", 1), Included("helper.h", 2))
    assert error.target is None


def test_warnings_before_the_error_are_skipped():
    error = first_error(DRIVER_NOISE)
    assert error is not None and (error.file, error.line) == ("a.hip", 4)
    assert error.included_from == ()


def test_a_chain_of_an_earlier_warning_does_not_stick_to_a_later_error():
    output = ("In file included from a.hip:1:\nh.h:1:1: warning: unused\nint x;\n^\n"
              "a.hip:9:2: error: boom\n")
    error = first_error(output)
    assert error is not None and (error.file, error.line, error.included_from) == (
        "a.hip", 9, ())


@pytest.mark.parametrize("output, message", [
    pytest.param("clang: error: unsupported option '--foo'\n",
                 "clang: unsupported option '--foo'", id="driver"),
    pytest.param("ld.lld: error: undefined symbol: f()\n", "ld.lld: undefined symbol: f()",
                 id="linker"),
    pytest.param("error: cannot run hipcc: No such file\n", "cannot run hipcc: No such file",
                 id="bare"),
    pytest.param("fatal error: error in backend: Cannot select\n",
                 "error in backend: Cannot select", id="backend"),
])
def test_errors_without_a_location(output, message):
    error = first_error(output)
    assert error is not None and error.file is None and error.message == message


@pytest.mark.parametrize("output", [
    pytest.param("", id="empty"),
    pytest.param("a.hip:1:1: warning: x\n1 warning generated.\n", id="warnings-only"),
    pytest.param("  error: indented source text is not a diagnostic\n", id="indented"),
    pytest.param("a.hip:1:1: note: a note alone\n", id="note"),
])
def test_no_error(output):
    assert first_error(output) is None
