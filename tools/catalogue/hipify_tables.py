"""Read facts (CUDA name -> HIP name, versions) from HIPIFY's markdown tables.

Input: the ``docs/tables`` folder of a HIPIFY checkout, given on the command
line.  Only facts are taken from it; nothing here depends on it at test time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# table file stem -> hipport library used for names first seen there
TABLES: dict[str, str] = {
    "CUDA_Runtime_API_functions_supported_by_HIP": "runtime",
    "CUDA_Driver_API_functions_supported_by_HIP": "driver",
    "CUDA_Device_API_supported_by_HIP": "device",
    "CUBLAS_API_supported_by_HIP": "cublas",
    "CURAND_API_supported_by_HIP": "curand",
    "CUFFT_API_supported_by_HIP": "cufft",
    "CUSPARSE_API_supported_by_HIP": "cusparse",
    "CUSOLVER_API_supported_by_HIP": "cusolver",
    "CUB_API_supported_by_HIP": "cub",
    "CUDA_RTC_API_supported_by_HIP": "nvrtc",
    "cuComplex_API_supported_by_HIP": "cucomplex",
    "CUDNN_API_supported_by_MIOPEN": "cudnn",
}


@dataclass(frozen=True)
class HipifyFact:
    cuda: str
    hip: str | None
    table: str
    section: str
    cuda_added: str | None
    cuda_deprecated: str | None
    cuda_removed: str | None
    hip_added: str | None
    hip_deprecated: str | None
    hip_removed: str | None
    experimental: bool


def _cell(text: str) -> str | None:
    t = text.strip().strip("`").strip()
    return t or None


def _short(v: str | None) -> str | None:
    """'11.2.0' -> '11.2' (keep major.minor, plus patch when non-zero)."""
    if v is None:
        return None
    parts = v.split(".")
    while len(parts) > 2 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)


def read_table(path: Path) -> list[HipifyFact]:
    facts: list[HipifyFact] = []
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^##\s+\*\*\d+\.\s*(.*?)\*\*", line)
        if m:
            section = m.group(1).strip()
            continue
        if not line.startswith("|`"):
            continue
        cols = line.split("|")[1:-1]
        if len(cols) < 11:
            continue
        facts.append(
            HipifyFact(
                cuda=_cell(cols[0]) or "",
                hip=_cell(cols[5]),
                table=path.stem,
                section=section,
                cuda_added=_short(_cell(cols[1])),
                cuda_deprecated=_short(_cell(cols[2])),
                cuda_removed=_short(_cell(cols[4])),
                hip_added=_short(_cell(cols[6])),
                hip_deprecated=_short(_cell(cols[7])),
                hip_removed=_short(_cell(cols[9])),
                experimental=bool(_cell(cols[10])),
            )
        )
    return facts


def read_tables(tables_dir: Path) -> dict[str, tuple[str, HipifyFact]]:
    """cuda name -> (hipport library, fact); first table listed wins."""
    out: dict[str, tuple[str, HipifyFact]] = {}
    for stem, library in TABLES.items():
        path = tables_dir / f"{stem}.md"
        if not path.is_file():
            continue
        for fact in read_table(path):
            if fact.cuda and fact.cuda not in out:
                out[fact.cuda] = (library, fact)
    return out
