"""hipport: port CUDA C++ code bases to AMD HIP/ROCm."""
from __future__ import annotations

__version__ = "0.1.0"

from hipport.api import ConversionResult, convert_source  # noqa: E402

__all__ = ["__version__", "convert_source", "ConversionResult"]
