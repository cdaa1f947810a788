"""hipport: port CUDA C++ code bases to AMD HIP/ROCm."""
from __future__ import annotations

from hipport.api import ConversionResult, convert_source
from hipport.version import __version__

__all__ = ["__version__", "convert_source", "ConversionResult"]
