"""Reading a build's output (hipport.verify.buildlog): CMake's errors with
their call stacks, compiler errors with their include chains (Clang's and
GCC's), lld's and GNU ld's link errors, and make's failures.  The outputs
are those of ROCm 6.4's cmake 4.3, make 4.4, Clang 21, GCC 16 and lld 21."""
from __future__ import annotations

from hipport.buildfiles.makelog import make_failures, make_folders
from hipport.verify.buildlog import (
    CompileError,
    ConfigureError,
    LinkError,
    LinkFailed,
    ShellError,
    read_log,
)

CONFIGURE = """\
-- The HIP compiler identification is Clang 21.1.8
CMake Error at /usr/share/cmake-4.3/Modules/FindThreads.cmake:129 (message):
  FindThreads only works if either C or CXX language is enabled
Call Stack (most recent call first):
  /usr/share/cmake-4.3/Modules/CMakeFindDependencyMacro.cmake:93 (find_package)
  /usr/lib/x86_64-linux-gnu/cmake/hip/hip-config-amd.cmake:134 (find_dependency)
  /usr/lib/x86_64-linux-gnu/cmake/hip/hip-config.cmake:167 (include)
  CMakeLists.txt:3 (find_package)


CMake Error at CMakeLists.txt:4 (find_package):
  By not providing "Findnothere.cmake" in CMAKE_MODULE_PATH this project has
  asked CMake to find a package configuration file provided by "nothere", but
  CMake did not find one.

  Could not find a package configuration file provided by "nothere" with any
  of the following names:

    nothereConfig.cmake
    nothere-config.cmake


CMake Error at /usr/share/cmake-4.3/Modules/CMakeTestCXXCompiler.cmake:73 (message):
  The C++ compiler

    "/usr/bin/c++"

  is not able to compile a simple test program.

  It fails with the following output:

    /usr/bin/c++    -o CMakeFiles/cmTC_f732a.dir/testCXXCompiler.cxx.o -c x.cxx
    x.cxx:1:2: error: this is inside CMake's message
    gmake[1]: *** [CMakeFiles/cmTC_f732a.dir/build.make:102: cmTC_f732a] Error 1

Call Stack (most recent call first):
  CMakeLists.txt:2 (project)


-- Configuring incomplete, errors occurred!
"""

BUILD = """\
[ 16%] Building CXX object CMakeFiles/other.dir/other.cpp.o
[ 50%] Linking CXX executable other
ld.lld: error: undefined symbol: missing_fn(int)
>>> referenced by other.cpp
>>>               CMakeFiles/other.dir/other.cpp.o:(main)
collect2: error: ld returned 1 exit status
gmake[2]: *** [CMakeFiles/other.dir/build.make:102: other] Error 1
gmake[2]: Target 'CMakeFiles/other.dir/build' not remade because of errors.
gmake[1]: *** [CMakeFiles/Makefile2:157: CMakeFiles/other.dir/all] Error 2
[ 66%] Built target kern
[ 83%] Building CXX object CMakeFiles/app.dir/main.cpp.o
In file included from /src/p1/main.cpp:1:
/usr/include/hip/hip_runtime.h:66:2: error: #error ("Must define exactly one of ...");
   66 | #error("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__");
      |  ^~~~~
In file included from /usr/include/hip/hip_runtime_api.h:36,
                 from /usr/include/hip/hip_runtime.h:70:
/usr/include/hip/linker_types.h:127:2: error: #error ("Must define exactly one of ...");
gmake[2]: *** [CMakeFiles/app.dir/build.make:79: CMakeFiles/app.dir/main.cpp.o] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:125: CMakeFiles/app.dir/all] Error 2
gmake: *** [Makefile:91: all] Error 2
"""

MAKE = """\
make: Entering directory '/tmp/copy/m1'
hipcc -c src/kernel.hip -o kernel.o
src/kernel.hip:3:70: error: expected ';' after do/while statement
    3 | void launch(int *p){ hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, p) }
1 error generated when compiling for gfx90a.
failed to execute:/usr/lib/llvm-21/bin/clang++  -O3  -c -x hip src/kernel.hip -o "kernel.o"
make: *** [Makefile:9: kernel.o] Error 1
ld.lld: error: unable to find library -lnothere
clang++: error: linker command failed with exit code 1 (use -v to see invocation)
make: *** [Makefile:15: tool] Error 1
/bin/sh: 1: nvcc: not found
make: *** [Makefile:18: old] Error 127
make: *** No rule to make target 'src/gone.cu', needed by 'gone.o'.  Stop.
make: Leaving directory '/tmp/copy/m1'
"""

GNU_LD = """\
/usr/bin/x86_64-linux-gnu-ld.bfd: main.o: in function `main':
main.cpp:(.text+0xf): undefined reference to `absent()'
/usr/bin/ld: /tmp/m1/src/main.cpp:3:(.text+0xa): undefined reference to `launch(int*)'
/usr/bin/x86_64-linux-gnu-ld.bfd: cannot find -lnothere: No such file or directory
collect2: error: ld returned 1 exit status
"""


def test_cmake_errors_with_their_call_stacks():
    problems = read_log(CONFIGURE).problems
    assert [type(p) for p in problems] == [ConfigureError] * 3  # not the compiler line inside
    threads, package, compiler = problems
    assert threads.message == "FindThreads only works if either C or CXX language is enabled"
    assert (threads.file, threads.line, threads.command) == (
        "/usr/share/cmake-4.3/Modules/FindThreads.cmake", 129, "message")
    assert [(f.file, f.line) for f in threads.stack][-1] == ("CMakeLists.txt", 3)
    assert package.message.startswith('By not providing "Findnothere.cmake" in ')
    assert package.message.endswith("but CMake did not find one.")
    assert (package.file, package.line, package.stack) == ("CMakeLists.txt", 4, ())
    assert compiler.message == ('The C++ compiler "/usr/bin/c++" is not able to compile a '
                                "simple test program.")
    assert compiler.stack[0].file == "CMakeLists.txt"


def test_compile_and_link_errors_and_make_failures():
    log = read_log(BUILD)
    link, failed, first, second = log.problems
    assert isinstance(link, LinkError) and link.symbol == "missing_fn(int)"
    assert (link.file, link.line, link.object) == ("other.cpp", 0,
                                                   "CMakeFiles/other.dir/other.cpp.o")
    assert isinstance(failed, LinkFailed)
    assert isinstance(first, CompileError) and isinstance(second, CompileError)
    assert first.error.included_from[0].file == "/src/p1/main.cpp"
    assert first.error.message.startswith("#error (")
    # GCC names only the part of the include chain that changed, innermost
    # first: the chain is outermost first.
    assert [i.file for i in second.error.included_from] == [
        "/usr/include/hip/hip_runtime.h", "/usr/include/hip/hip_runtime_api.h"]
    failures = log.failures
    assert [(f.makefile, f.line, f.target, f.status, f.level) for f in failures] == [
        ("CMakeFiles/other.dir/build.make", 102, "other", 1, 2),
        ("CMakeFiles/Makefile2", 157, "CMakeFiles/other.dir/all", 2, 1),
        ("CMakeFiles/app.dir/build.make", 79, "CMakeFiles/app.dir/main.cpp.o", 1, 2),
        ("CMakeFiles/Makefile2", 125, "CMakeFiles/app.dir/all", 2, 1),
        ("Makefile", 91, "all", 2, 0)]


def test_make_output():
    log = read_log(MAKE)
    compile_error, library, failed, shell = log.problems
    assert isinstance(compile_error, CompileError)
    assert compile_error.folder == "/tmp/copy/m1"
    assert compile_error.error.target == "gfx90a"
    assert isinstance(library, LinkError) and library.library == "-lnothere"
    assert isinstance(failed, LinkFailed)
    assert isinstance(shell, ShellError) and shell.message == "nvcc: not found"
    complaint = log.failures[-1]
    assert complaint.status is None and complaint.target is None
    assert complaint.why == "No rule to make target 'src/gone.cu', needed by 'gone.o'.  Stop."
    assert [f.status for f in log.failures] == [1, 1, 127, None]
    assert log.failures[0].folder == "/tmp/copy/m1"


def test_gnu_ld():
    absent, launch, library, failed = read_log(GNU_LD).problems
    assert isinstance(absent, LinkError) and absent.symbol == "absent()"
    assert (absent.file, absent.line, absent.object) == ("main.cpp", 0, "main.o")
    assert isinstance(launch, LinkError) and launch.symbol == "launch(int*)"
    assert (launch.file, launch.line) == ("/tmp/m1/src/main.cpp", 3)
    assert isinstance(library, LinkError) and library.library == "-lnothere"
    assert isinstance(failed, LinkFailed)


def test_lld_with_debug_information():
    log = read_log("ld.lld: error: undefined symbol: absent()\n"
                   ">>> referenced by main.cpp:3 (src/main.cpp:3)\n"
                   ">>>               mg.o:(main)\n")
    (link,) = log.problems
    assert isinstance(link, LinkError)
    assert (link.file, link.line, link.object) == ("src/main.cpp", 3, "mg.o")


def test_make_folders_follow_recursion():
    lines = ["make: Entering directory '/a'", "x", "make[1]: Entering directory '/a/b'", "y",
             "make[1]: Leaving directory '/a/b'", "z"]
    assert make_folders(lines) == ["/a", "/a", "/a/b", "/a/b", "/a", "/a"]
    assert make_failures(["make: *** [x] Error 1"])[0].target == "x"  # make 3.81: no file
