"""Mapping entries and their validation, with file:line:key messages."""
from __future__ import annotations

import enum
from dataclasses import dataclass


SCHEMA_ID = "hipport-mappings/1"

LIBRARIES = (
    "runtime", "driver", "device", "cooperative_groups", "cublas", "cublaslt", "curand",
    "cufft", "cusparse", "cusolver", "cub", "thrust", "nccl", "nvrtc", "nvtx", "cucomplex",
    "cudnn", "headers",
)
KINDS = ("function", "type", "enum", "macro", "header", "device_function", "namespace")
VERSION_KEYS = ("added", "deprecated", "removed")


class Status(enum.Enum):
    SUPPORTED = "supported"
    DEPRECATED = "deprecated"
    UNSUPPORTED = "unsupported"
    REMOVED = "removed"

    @property
    def converts(self) -> bool:
        return self in (Status.SUPPORTED, Status.DEPRECATED)


Versions = tuple[tuple[str, str], ...]
# A Mapping as plain data (for the compiled-catalogue cache), fields in order.
Row = tuple[str, "str | None", str, str, str, "str | None", "str | None", bool, "str | None",
            Versions, Versions, str]


@dataclass(frozen=True)
class Mapping:
    cuda: str
    hip: str | None
    kind: str
    library: str
    status: Status = Status.SUPPORTED
    hip_library: str | None = None
    note: str | None = None
    unsafe: bool = False
    rule: str | None = None
    cuda_version: tuple[tuple[str, str], ...] = ()
    rocm_version: tuple[tuple[str, str], ...] = ()
    origin: str = ""  # "file:line", for messages

    def to_row(self) -> Row:
        return (self.cuda, self.hip, self.kind, self.library, self.status.value,
                self.hip_library, self.note, self.unsafe, self.rule, self.cuda_version,
                self.rocm_version, self.origin)

    @classmethod
    def from_row(cls, row: Row) -> Mapping:
        (cuda, hip, kind, library, status, hip_library, note, unsafe, rule, cuda_version,
         rocm_version, origin) = row
        return cls(cuda, hip, kind, library, Status(status), hip_library, note, unsafe, rule,
                   cuda_version, rocm_version, origin)

    @property
    def rocm_added(self) -> str | None:
        return dict(self.rocm_version).get("added")


def parse_mapping_file(text: str, path: str) -> list[Mapping]:
    """The entries of one mapping file (YAML, read by ``hipport.table.yaml_file``:
    a run with the compiled catalogue cached never imports the YAML parser)."""
    from hipport.table.yaml_file import parse_mapping_file as parse

    return parse(text, path)


def parse_version(text: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
