"""What to do about an error a build or a compiler printed, where hipport
knows the usual cause (a line under the finding, ``hint`` in the JSON)."""
from __future__ import annotations

_CONFIGURE_OPTION = ("the project stops until a configure option is given: give it as you would "
                     "build it, -D NAME=VALUE (CMake) or --make-var NAME=VALUE (Make), to verify, "
                     "convert --verify or report --verify")
_HINTS = (
    ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__",
     "a C++ source compiled without the HIP platform: link its target with hip::host "
     "(CMake), or compile it as HIP (LANGUAGE HIP, hipcc)"),
    ("does not contain the HIP runtime CMake package",
     "CMake before 3.27 looks for hip-lang in <root>/lib/cmake only, not in a distribution's "
     "multiarch folder: use CMake 3.27+, or the work-arounds of docs/build-files.md (Debian 12 "
     "gaps)"),
    ("FindThreads only works if either C or CXX language is enabled",
     "find_package(hip) needs C or CXX: enable CXX with HIP (project(... LANGUAGES CXX HIP))"),
    # a project's own message(FATAL_ERROR) for a cache variable it needs
    ("is unspecified", _CONFIGURE_OPTION),
    ("must be specified", _CONFIGURE_OPTION),
    ("is not specified", _CONFIGURE_OPTION),
)


def hint(message: str) -> str | None:
    return next((advice for text, advice in _HINTS if text in message), None)
