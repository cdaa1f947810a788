"""What a build-file conversion produces (the offload targets, fix safety)."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.settings import Settings

# MI200 (CDNA2) and MI300 (CDNA3): the data-centre GPUs CUDA code is most
# often ported to.  Change with `hipport convert --offload-arch gfx1100;...`.
DEFAULT_OFFLOAD_ARCH: tuple[str, ...] = ("gfx90a", "gfx942")


@dataclass(frozen=True)
class BuildOptions:
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH
    settings: Settings = Settings()

    def __post_init__(self) -> None:
        if not self.offload_arch or not all(
                a and all(c.isalnum() or c in ":+-_" for c in a) for a in self.offload_arch):
            raise ValueError(f"invalid offload architecture list {self.offload_arch!r}; "
                             "expected names such as gfx90a")


def parse_offload_arch(value: str) -> tuple[str, ...]:
    """``"gfx90a;gfx942"`` or ``"gfx90a,gfx942"`` -> ``("gfx90a", "gfx942")``."""
    return tuple(a.strip() for a in value.replace(",", ";").split(";") if a.strip())
